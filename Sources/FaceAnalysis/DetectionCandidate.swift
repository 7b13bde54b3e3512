/// A detection as decoders emit it and ``NonMaximumSuppression`` merges
/// it, before it becomes a ``FaceDetection``: 16 coordinates (`xmin, ymin,
/// xmax, ymax`, then the keypoints as `x, y` pairs: BlazeFace's six, or
/// YuNet-s's five and two unused lanes) in the frame the decoder works in
/// (a BlazeFace model's normalized input, YuNet-s's input pixels, or
/// picture pixels for a merge across regions) and its score.
package struct DetectionCandidate: Sendable, Equatable {
    package var coordinates: SIMD16<Float>
    package var score: Float

    package init(coordinates: SIMD16<Float>, score: Float) {
        self.coordinates = coordinates
        self.score = score
    }

    package var xmin: Float { coordinates[0] }
    package var ymin: Float { coordinates[1] }
    package var xmax: Float { coordinates[2] }
    package var ymax: Float { coordinates[3] }
    package var width: Float { coordinates[2] - coordinates[0] }
    package var height: Float { coordinates[3] - coordinates[1] }

    /// A face in picture pixels, as a merge across regions reads it: the
    /// box's corners (origin, origin + size) and its keypoints (up to six).
    package init(pixels face: FaceDetection) {
        var c = SIMD16<Float>()
        c[0] = face.box.x; c[1] = face.box.y; c[2] = face.box.x + face.box.width; c[3] = face.box.y + face.box.height
        for (k, p) in face.keypoints.prefix(6).enumerated() { c[4 + 2 * k] = p.x; c[5 + 2 * k] = p.y }
        self.init(coordinates: c, score: face.score)
    }
}
