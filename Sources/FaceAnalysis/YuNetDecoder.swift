import Foundation
import ImageCore
import Inference

/// Turns YuNet-s's head outputs into detections as libfacedetection does
/// (docs/YUNET.md "Decoding"): anchor-free, one prior per cell at
/// (column·stride, row·stride); score √(σ(class)·σ(objectness)) with the
/// logits clamped to ±88.376; box centre prior + (dx, dy)·stride, size
/// exp(log w, log h)·stride; keypoints prior + (x, y)·stride; candidates
/// with score ≥ 0.2 (or a lower `Rows.floor`), stably sorted by score,
/// the best 1000 kept; greedy NMS dropping a box whose IoU with a kept one
/// exceeds 0.45; at most 512.
package enum YuNetDecoder {
    package static let candidateThreshold: Float = 0.2
    package static let preNMSLimit = 1000
    package static let overlapThreshold: Float = 0.45
    package static let keepLimit = 512
    static let logitLimit: Float = 88.3762626647949

    /// A candidate: corners and ten keypoint coordinates.
    struct Candidate {
        var score: Float
        var xmin: Float, ymin: Float, xmax: Float, ymax: Float
        var points: [Float]
    }

    static func sigmoid(_ value: Float) -> Float {
        let v = min(max(value, -logitLimit), logitLimit)
        return 1 / (1 + expf(-v))
    }

    /// Decoding as the network's rows come (a streamed run hands each
    /// level's output a band of rows at a time; each level's output is
    /// `[rows, columns, YuNetGraph.levelChannels]` row-major, the four heads
    /// side by side, `YuNetGraph.headOffsets`): the same detections, in the
    /// same order, as decoding the whole outputs, without holding them.
    package struct Rows {
        let width: Int
        /// The lowest score decoded: `candidateThreshold` as libfacedetection,
        /// or lower for a detector asked for lower scores.
        let floor: Float
        /// Each level's candidates in cell order (levels are joined finest
        /// first, so ties sort as in libfacedetection).
        var candidates: [[Candidate]] = Array(repeating: [], count: YuNetGraph.strides.count)

        /// For an input `width` (padded) pixels wide, decoding scores from `floor`.
        package init(width: Int, floor: Float = candidateThreshold) {
            self.width = width
            self.floor = floor
        }

        /// Decodes rows `firstRow…` of level `level`'s output (whole rows, the four heads side by side).
        package mutating func add(level: Int, firstRow: Int, _ heads: UnsafeBufferPointer<Float>) {
            let n = YuNetGraph.levelChannels, o = YuNetGraph.headOffsets
            let stride = YuNetGraph.strides[level], columns = width / stride, s = Float(stride)
            for cell in 0..<(heads.count / n) {
                let score = (sigmoid(heads[cell * n + o[0]]) * sigmoid(heads[cell * n + o[1]])).squareRoot()
                guard score >= floor else { continue }
                let px = Float(cell % columns) * s, py = Float(firstRow + cell / columns) * s
                let bbox = cell * n + o[2], kps = cell * n + o[3]
                let cx = heads[bbox] * s + px, cy = heads[bbox + 1] * s + py
                let w = expf(heads[bbox + 2]) * s, h = expf(heads[bbox + 3]) * s
                var points = [Float](repeating: 0, count: 10)
                for k in 0..<5 {
                    points[2 * k] = heads[kps + 2 * k] * s + px
                    points[2 * k + 1] = heads[kps + 2 * k + 1] * s + py
                }
                candidates[level].append(Candidate(score: score, xmin: cx - w / 2, ymin: cy - h / 2, xmax: cx + w / 2, ymax: cy + h / 2,
                                                   points: points))
            }
        }

        /// Every level's candidates, sorted, limited and suppressed as libfacedetection does.
        package func detections() -> [YuNetDetection] {
            suppress(candidates.flatMap { $0 }).map { c in
                YuNetDetection(box: Rect(x: c.xmin, y: c.ymin, width: c.xmax - c.xmin, height: c.ymax - c.ymin), score: c.score,
                               landmarks: (0..<5).map { Point(x: c.points[2 * $0], y: c.points[2 * $0 + 1]) })
            }
        }
    }

    /// Stable sort by score, the best `preNMSLimit`, greedy NMS, at most `keepLimit`.
    static func suppress(_ candidates: [Candidate], limited: Bool = true) -> [Candidate] {
        let sorted = candidates.indices.sorted { a, b in
            candidates[a].score != candidates[b].score ? candidates[a].score > candidates[b].score : a < b
        }
        var kept: [Candidate] = []
        for index in limited ? sorted.prefix(preNMSLimit) : sorted[...] {
            let candidate = candidates[index]
            if kept.allSatisfy({ overlap(candidate, $0) <= overlapThreshold }) { kept.append(candidate) }
        }
        return limited ? Array(kept.prefix(keepLimit)) : kept
    }

    /// The same greedy NMS, without limits, over detections of several
    /// regions (tiles and levels of a `YuNetSearchPlan`), in the order given for equal scores.
    static func suppress(_ detections: [YuNetDetection]) -> [YuNetDetection] {
        let candidates = detections.map { d in
            Candidate(score: d.score, xmin: d.box.x, ymin: d.box.y, xmax: d.box.x + d.box.width, ymax: d.box.y + d.box.height,
                      points: d.landmarks.flatMap { [$0.x, $0.y] })
        }
        return suppress(candidates, limited: false).map { c in
            YuNetDetection(box: Rect(x: c.xmin, y: c.ymin, width: c.xmax - c.xmin, height: c.ymax - c.ymin), score: c.score,
                           landmarks: (0..<5).map { Point(x: c.points[2 * $0], y: c.points[2 * $0 + 1]) })
        }
    }

    /// Intersection over union as libfacedetection computes it (0 unless the
    /// intersection has positive width and height).
    static func overlap(_ a: Candidate, _ b: Candidate) -> Float {
        guard !(b.xmin > a.xmax || b.xmax < a.xmin || b.ymin > a.ymax || b.ymax < a.ymin) else { return 0 }
        let width = min(a.xmax, b.xmax) - max(a.xmin, b.xmin)
        let height = min(a.ymax, b.ymax) - max(a.ymin, b.ymin)
        guard width > 0, height > 0 else { return 0 }
        let intersection = width * height
        let areaA = (a.xmax - a.xmin) * (a.ymax - a.ymin), areaB = (b.xmax - b.xmin) * (b.ymax - b.ymin)
        return intersection / (areaA + areaB - intersection)
    }
}
