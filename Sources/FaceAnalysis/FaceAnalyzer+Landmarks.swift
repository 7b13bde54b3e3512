import Foundation
import ImageCore

extension FaceAnalyzer {
    /// Face Mesh (468 points with depth) and, with `iris`, the Iris model on
    /// both eyes, for one detected face. Returns `nil` when the landmark
    /// model says there is no face in the region (presence ≤ 0.5) or the
    /// region is degenerate. Faces partly outside the image work: the
    /// region is sampled with a black border.
    public func landmarks(for detection: FaceDetection, in image: RGBImage) throws(FaceAnalysisError) -> FaceLandmarks? {
        try landmarks(for: detection, in: image, iris: true)
    }

    /// `landmarks(for:in:)`, with the Iris model optional (`iris: false`
    /// leaves the iris and eye-contour arrays empty).
    public func landmarks(for detection: FaceDetection, in image: RGBImage, iris: Bool) throws(FaceAnalysisError) -> FaceLandmarks? {
        try landmarkOutcome(for: detection, in: image, iris: iris).landmarks
    }

    /// The landmarks of one detected face, or why there are none: Face
    /// Mesh's presence output below 0.5 (not a face; asked only when the
    /// detection `needsSecondOpinion`), or a region that cannot be sampled.
    public func landmarkOutcome(for detection: FaceDetection, in image: RGBImage, iris: Bool) throws(FaceAnalysisError) -> LandmarkOutcome {
        guard image.width > 0, image.height > 0, detection.isFinite else { return .unusableRegion }
        let roi = RotatedSquare.faceMeshROI(for: detection)
        guard roi.isUsable else { return .unusableRegion }
        let mesh = try faceMesh()
        let size = 192
        try mesh.run { input in
            TensorSampler.sample(image, transform: roi.samplingTransform(tensorSize: size), size: size,
                                 valueScale: 1 / 255, valueOffset: 0, into: input)
        }
        let presence = try mesh.output(count: 1) { flag in
            1 / (1 + exp(-min(max(flag[0], -80), 80)))
        }
        guard presence.isFinite else { return .unusableRegion }
        guard presence > FaceLandmarks.minimumPresence || !detection.needsSecondOpinion else { return .notAFace(presence: presence) }
        let points = try mesh.output(count: 1404) { raw in
            (0..<FaceLandmarks.meshPointCount).map { i in
                roi.toImage(x: raw[3 * i], y: raw[3 * i + 1], z: raw[3 * i + 2], tensorSize: size)
            }
        }
        guard points.allSatisfy({ $0.x.isFinite && $0.y.isFinite && $0.z.isFinite }) else { return .unusableRegion }
        var result = FaceLandmarks(mesh: points, presence: presence)
        if iris {
            let t = FaceMeshTopology.self
            // The subject's right eye is on the image left (33 → 133); the left eye
            // (362 → 263) is mirrored before inference, as MediaPipe does.
            let right = try eye(corner: result.point(t.rightEyeCorners.outer), corner: result.point(t.rightEyeCorners.inner), mirrored: false, in: image)
            let left = try eye(corner: result.point(t.leftEyeCorners.inner), corner: result.point(t.leftEyeCorners.outer), mirrored: true, in: image)
            if let right, let left {
                result.rightEyeContour = right.contour; result.rightIris = right.iris
                result.leftEyeContour = left.contour; result.leftIris = left.iris
            }
        }
        return .found(result)
    }

    func eye(corner a: Point, corner b: Point, mirrored: Bool, in image: RGBImage) throws(FaceAnalysisError) -> (contour: [Point3], iris: [Point3])? {
        let roi = RotatedSquare.irisROI(corner: a, corner: b)
        guard roi.isUsable else { return nil }
        let model = try irisModel()
        let size = 64
        try model.run { input in
            TensorSampler.sample(image, transform: roi.samplingTransform(tensorSize: size), size: size,
                                 valueScale: 1 / 255, valueOffset: 0, flipHorizontal: mirrored, into: input)
        }
        func project(_ raw: UnsafeBufferPointer<Float>) -> [Point3] {
            (0..<(raw.count / 3)).map { i in
                roi.toImage(x: raw[3 * i], y: raw[3 * i + 1], z: raw[3 * i + 2], tensorSize: size, mirrored: mirrored)
            }
        }
        let contour = try model.output(count: 213) { project($0) }
        let iris = try model.output(count: 15) { project($0) }
        guard (contour + iris).allSatisfy({ $0.x.isFinite && $0.y.isFinite && $0.z.isFinite }) else { return nil }
        return (contour, iris)
    }
}
