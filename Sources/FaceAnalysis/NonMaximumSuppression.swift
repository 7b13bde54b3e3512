import ImageCore

/// The one home of non-maximum suppression and of the overlap it measures,
/// for every detector family: ``weighted(_:iouThreshold:)`` (MediaPipe's,
/// BlazeFace's families and the merge of their regions) and
/// ``greedy(_:overlapThreshold:candidateLimit:keepLimit:)``
/// (libfacedetection's, YuNet-s's tiles and levels), both over
/// ``DetectionCandidate`` and both measuring
/// ``intersectionOverUnion(_:_:)``.
///
/// Deterministic: ties in score keep input order.
package enum NonMaximumSuppression {
    /// A box as the overlap reads it: its corners, and its size kept apart
    /// (a `Rect`'s width is not exactly its corners' difference in floats,
    /// so each kind of box gives the size it holds).
    package struct Extent {
        var xmin: Float, ymin: Float, xmax: Float, ymax: Float
        var width: Float, height: Float

        @inline(__always)
        package init(_ detection: DetectionCandidate) {
            let c = detection.coordinates
            xmin = c[0]; ymin = c[1]; xmax = c[2]; ymax = c[3]
            width = c[2] - c[0]; height = c[3] - c[1]
        }

        @inline(__always)
        package init(x: Float, y: Float, width: Float, height: Float) {
            xmin = x; ymin = y; xmax = x + width; ymax = y + height
            self.width = width; self.height = height
        }
    }

    /// Intersection over union: 0 unless the intersection has positive
    /// width and height, otherwise intersection ÷ (area + area −
    /// intersection) as MediaPipe and libfacedetection compute it (NaN only
    /// for an infinite box; every caller treats NaN as no overlap).
    @inline(__always)
    package static func intersectionOverUnion(_ a: Extent, _ b: Extent) -> Float {
        let shared = intersection(a, b)
        guard shared > 0 else { return 0 }
        return shared / (a.width * a.height + b.width * b.height - shared)
    }

    /// The area two boxes share: 0 unless it has positive width and height.
    @inline(__always)
    package static func intersection(_ a: Extent, _ b: Extent) -> Float {
        let x0 = max(a.xmin, b.xmin), y0 = max(a.ymin, b.ymin)
        let x1 = min(a.xmax, b.xmax), y1 = min(a.ymax, b.ymax)
        guard x1 > x0, y1 > y0 else { return 0 }
        return (x1 - x0) * (y1 - y0)
    }

    /// MediaPipe's weighted non-maximum suppression
    /// (`WeightedNonMaximumSuppression` in its graphs): repeatedly take the
    /// highest-scoring remaining detection, gather every remaining
    /// detection whose box overlaps it with IoU above the threshold (itself
    /// included), and emit the score-weighted mean of all their coordinates
    /// with the best detection's score.
    package static let weightedThreshold: Float = 0.3

    package static func weighted(_ detections: [DetectionCandidate],
                                 iouThreshold: Float = weightedThreshold) -> [DetectionCandidate] {
        var remaining = order(detections)
        var output: [DetectionCandidate] = []
        while let best = remaining.first {
            let bestDetection = detections[best], bestExtent = Extent(bestDetection)
            var weighted = SIMD16<Float>()
            var totalScore: Float = 0
            var members = 0
            var rest: [Int] = []
            rest.reserveCapacity(remaining.count)
            for index in remaining {
                let candidate = detections[index]
                if intersectionOverUnion(Extent(candidate), bestExtent) > iouThreshold || index == best {
                    weighted += candidate.coordinates * candidate.score
                    totalScore += candidate.score
                    members += 1
                } else {
                    rest.append(index)
                }
            }
            let merged = members > 1 && totalScore > 0 ? weighted / totalScore : bestDetection.coordinates
            output.append(DetectionCandidate(coordinates: merged, score: bestDetection.score))
            remaining = rest
        }
        return output
    }

    /// libfacedetection's greedy suppression: the best `candidateLimit` by
    /// score, each kept unless its IoU with one already kept exceeds
    /// `overlapThreshold`, at most `keepLimit` kept.
    package static func greedy(_ detections: [DetectionCandidate], overlapThreshold: Float,
                               candidateLimit: Int = .max, keepLimit: Int = .max) -> [DetectionCandidate] {
        greedyKept(detections, overlapThreshold: overlapThreshold, candidateLimit: candidateLimit, keepLimit: keepLimit)
            .map { detections[$0] }
    }

    /// The indices of the detections ``greedy(_:overlapThreshold:candidateLimit:keepLimit:)``
    /// keeps, in the order it keeps them (for callers that keep more
    /// about each detection than its coordinates).
    package static func greedyKept(_ detections: [DetectionCandidate], overlapThreshold: Float,
                                   candidateLimit: Int = .max, keepLimit: Int = .max) -> [Int] {
        var kept: [Int] = []
        var keptExtents: [Extent] = []
        for index in order(detections).prefix(candidateLimit) {
            let extent = Extent(detections[index])
            if keptExtents.allSatisfy({ intersectionOverUnion(extent, $0) <= overlapThreshold }) {
                kept.append(index)
                keptExtents.append(extent)
            }
        }
        return Array(kept.prefix(keepLimit))
    }

    /// Indices by score, best first, ties in input order.
    private static func order(_ detections: [DetectionCandidate]) -> [Int] {
        detections.indices.sorted { a, b in
            detections[a].score != detections[b].score ? detections[a].score > detections[b].score : a < b
        }
    }
}

extension Rect {
    /// Intersection over union with `other` (``NonMaximumSuppression/intersectionOverUnion(_:_:)``).
    package func intersectionOverUnion(_ other: Rect) -> Float {
        NonMaximumSuppression.intersectionOverUnion(.init(x: x, y: y, width: width, height: height),
                                                    .init(x: other.x, y: other.y, width: other.width, height: other.height))
    }

    /// The area shared with `other` (``NonMaximumSuppression/intersection(_:_:)``).
    package func intersectionArea(_ other: Rect) -> Float {
        NonMaximumSuppression.intersection(.init(x: x, y: y, width: width, height: height),
                                           .init(x: other.x, y: other.y, width: other.width, height: other.height))
    }
}
