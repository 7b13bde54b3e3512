/// MediaPipe's weighted non-maximum suppression: repeatedly take the
/// highest-scoring remaining detection, gather every remaining detection
/// whose box overlaps it with IoU above the threshold (itself included),
/// and emit the score-weighted mean of all their coordinates with the best
/// detection's score.
///
/// Deterministic: ties in score keep input order.
package enum WeightedNonMaximumSuppression {
    package static let defaultThreshold: Float = 0.3

    package static func apply(_ detections: [NormalizedDetection],
                              iouThreshold: Float = defaultThreshold) -> [NormalizedDetection] {
        var remaining = detections.indices.sorted { a, b in
            detections[a].score != detections[b].score ? detections[a].score > detections[b].score : a < b
        }
        var output: [NormalizedDetection] = []
        while let best = remaining.first {
            let bestDetection = detections[best]
            var weighted = SIMD16<Float>()
            var totalScore: Float = 0
            var members = 0
            var rest: [Int] = []
            rest.reserveCapacity(remaining.count)
            for index in remaining {
                let candidate = detections[index]
                if candidate.intersectionOverUnion(bestDetection) > iouThreshold || index == best {
                    weighted += candidate.coordinates * candidate.score
                    totalScore += candidate.score
                    members += 1
                } else {
                    rest.append(index)
                }
            }
            let merged = members > 1 && totalScore > 0 ? weighted / totalScore : bestDetection.coordinates
            output.append(NormalizedDetection(coordinates: merged, score: bestDetection.score))
            remaining = rest
        }
        return output
    }
}
