import Foundation
import ImageCore

/// A rotated square region of the image in pixels: the crop a landmark
/// model sees. `rotation` is the angle (radians, y down) of the square's
/// x axis in the image, so its x axis is (cos, sin) and its y axis (−sin, cos).
package struct RotatedSquare: Sendable, Hashable {
    package var centerX: Float
    package var centerY: Float
    package var side: Float
    package var rotation: Float

    package init(centerX: Float, centerY: Float, side: Float, rotation: Float) {
        self.centerX = centerX; self.centerY = centerY; self.side = side; self.rotation = rotation
    }

    /// MediaPipe's angle from two keypoints, θ = −atan2(y0 − y1, x1 − x0),
    /// normalized to −π…π.
    package static func angle(from a: Point, to b: Point) -> Float {
        let angle = -atan2(a.y - b.y, b.x - a.x)
        return angle - 2 * .pi * ((angle + .pi) / (2 * .pi)).rounded(.down)
    }

    /// The Face Mesh input region: a square of 1.5 × BlazeFace's box
    /// side, centred on that box, turned by the eye line (detector keypoints
    /// 0 → 1), as MediaPipe makes it. For a BlazeFace face the box is the
    /// reported one without `TurnedFaceBox`'s growth; for a face another
    /// family found, the BlazeFace box it stands for (its row's
    /// `DetectorFamily.FaceBox`).
    package static func faceMeshROI(for detection: FaceDetection) -> RotatedSquare {
        let eyes = detection.keypoints.count >= 2 ? (detection.keypoints[0], detection.keypoints[1]) : (Point(x: 0, y: 0), Point(x: 1, y: 0))
        let box = detection.box
        let (side, lower): (Float, Float)
        switch DetectorFamily.faceBox(of: detection.foundBy) {
        case (.blazeFace, _):
            (side, lower) = (TurnedFaceBox.detectorSide(of: detection), 0)
        case let (.fromHeight(scale, drop), false):
            (side, lower) = (box.height * scale, box.height * drop)
        case let (.fromHeight(scale, drop), true):
            // The mean of the family's box of height h and a BlazeFace box of side scale·h.
            let height = box.height * 2 / (1 + scale)
            (side, lower) = (height * scale, height * drop / 2)
        }
        return RotatedSquare(centerX: box.centerX, centerY: box.centerY + lower,
                             side: side * 1.5, rotation: angle(from: eyes.0, to: eyes.1))
    }

    /// The Iris input region for one eye: the box around its two corners
    /// (`a` on the image left for an upright face), squared on its longer
    /// side and scaled by 2.3, turned by the corner line.
    package static func irisROI(corner a: Point, corner b: Point) -> RotatedSquare {
        let side = max(abs(a.x - b.x), abs(a.y - b.y)) * 2.3
        return RotatedSquare(centerX: (min(a.x, b.x) + max(a.x, b.x)) / 2, centerY: (min(a.y, b.y) + max(a.y, b.y)) / 2,
                             side: side, rotation: angle(from: a, to: b))
    }

    /// The map from tensor coordinates (0…`tensorSize`, pixel centres at
    /// +0.5) to continuous image pixels: the tensor's corners land on the
    /// square's corners, its x axis along the square's.
    package func samplingTransform(tensorSize: Int) -> AffineMap {
        let s = side / Float(tensorSize), c = cos(rotation), n = sin(rotation)
        // image = centre + R · ((u, v)·s − side/2)
        let half = side / 2
        return AffineMap(a: c * s, b: -n * s, c: n * s, d: c * s,
                         tx: centerX - c * half + n * half, ty: centerY - n * half - c * half)
    }

    /// A model output point (tensor pixels; `z` on the x scale) in image
    /// pixels. With `mirrored`, the tensor was flipped left–right.
    package func toImage(x: Float, y: Float, z: Float, tensorSize: Int, mirrored: Bool = false) -> Point3 {
        let size = Float(tensorSize)
        let u = mirrored ? size - x : x
        let dx = (u / size - 0.5) * side, dy = (y / size - 0.5) * side
        let c = cos(rotation), n = sin(rotation)
        return Point3(x: centerX + c * dx - n * dy, y: centerY + n * dx + c * dy, z: z / size * side)
    }

    package var isUsable: Bool {
        side.isFinite && side >= 1 && centerX.isFinite && centerY.isFinite && rotation.isFinite
    }
}
