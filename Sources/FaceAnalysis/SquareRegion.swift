import ImageCore

/// A square of the image, in pixels, that a detector input covers. The whole
/// frame letterboxed is the square of side `max(width, height)` centred on
/// the image (black outside).
package struct SquareRegion: Sendable, Hashable {
    package var x: Float
    package var y: Float
    package var side: Float

    package init(x: Float, y: Float, side: Float) {
        self.x = x; self.y = y; self.side = side
    }

    /// The letterbox of a `width × height` image: black bars split evenly
    /// (MediaPipe's FIT scale mode). Undoing it is exactly
    /// `x' = (x − padX)/(1 − 2·padX)` in normalized terms.
    package static func letterbox(width: Int, height: Int) -> SquareRegion {
        let side = Float(max(width, height, 1))
        return SquareRegion(x: (Float(width) - side) / 2, y: (Float(height) - side) / 2, side: side)
    }

    /// The affine map from tensor coordinates (0…`size`) to image pixels.
    package func samplingTransform(tensorSize: Int) -> SamplingTransform {
        let s = side / Float(tensorSize)
        return SamplingTransform(a: s, b: 0, c: x, d: 0, e: s, f: y)
    }

    /// Maps a detection normalized to this square into image pixels.
    package func toImage(_ detection: NormalizedDetection) -> FaceDetection {
        let c = detection.coordinates
        let box = Rect(x: x + c[0] * side, y: y + c[1] * side,
                       width: (c[2] - c[0]) * side, height: (c[3] - c[1]) * side)
        let keypoints = (0..<6).map { k in Point(x: x + c[4 + 2 * k] * side, y: y + c[5 + 2 * k] * side) }
        return FaceDetection(box: box, score: detection.score, keypoints: keypoints)
    }
}
