/// A detection before it is mapped to image pixels: 16 coordinates in the
/// model's normalized input frame (`xmin, ymin, xmax, ymax`, then the six
/// keypoints as `x, y` pairs) and its score.
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

    /// Intersection over union of the boxes (MediaPipe's overlap similarity).
    package func intersectionOverUnion(_ other: NormalizedDetection) -> Float {
        let x0 = max(xmin, other.xmin), y0 = max(ymin, other.ymin)
        let x1 = min(xmax, other.xmax), y1 = min(ymax, other.ymax)
        guard x1 > x0, y1 > y0 else { return 0 }
        let intersection = (x1 - x0) * (y1 - y0)
        let union = width * height + other.width * other.height - intersection
        return union > 0 ? intersection / union : 0
    }
}
