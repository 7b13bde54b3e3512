/// A detection as decoders emit it and ``NonMaximumSuppression`` merges
/// it, before it becomes a ``FaceDetection``: 16 coordinates (`xmin, ymin,
/// xmax, ymax`, then the keypoints as `x, y` pairs: BlazeFace's six, or
/// YuNet-s's five and two unused lanes) in the frame the decoder works in
/// (a BlazeFace model's normalized input, YuNet-s's input pixels, or
/// picture pixels for a merge across regions) and its score.
package struct NormalizedDetection: Sendable, Equatable {
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
}
