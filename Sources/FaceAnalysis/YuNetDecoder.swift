import Foundation
import ImageCore
import Inference

/// Turns YuNet-s's head outputs into detections as libfacedetection does
/// (docs/YUNET.md "Decoding"): anchor-free, one prior per cell at
/// (column·stride, row·stride); score √(σ(class)·σ(objectness)) with the
/// logits clamped to ±88.376; box centre prior + (dx, dy)·stride, size
/// exp(log w, log h)·stride; keypoints prior + (x, y)·stride; candidates
/// with score ≥ 0.2, stably sorted by score, the best 1000 kept; greedy
/// NMS dropping a box whose IoU with a kept one exceeds 0.45; at most 512.
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

    /// Decodes the heads of an input of `height`×`width` (padded) pixels.
    /// `head(level, kind)` gives the output of `YuNetGraph.headNames[kind]`
    /// at `YuNetGraph.strides[level]`, `[rows, columns, channels]` row-major.
    package static func decode(height: Int, width: Int,
                               head: (_ level: Int, _ kind: Int, _ body: (UnsafeBufferPointer<Float>) -> Void) -> Void) -> [YuNetDetection] {
        var candidates: [Candidate] = []
        for (level, stride) in YuNetGraph.strides.enumerated() {
            let rows = height / stride, columns = width / stride, cells = rows * columns
            let s = Float(stride)
            var scores = [Float](repeating: 0, count: cells)
            head(level, 0) { cls in
                for cell in 0..<cells { scores[cell] = sigmoid(cls[cell]) }
            }
            head(level, 1) { obj in
                for cell in 0..<cells { scores[cell] = (scores[cell] * sigmoid(obj[cell])).squareRoot() }
            }
            var kept: [Int] = []
            for cell in 0..<cells where scores[cell] >= candidateThreshold { kept.append(cell) }
            guard !kept.isEmpty else { continue }
            var boxes: [(Float, Float, Float, Float)] = []
            head(level, 2) { bbox in
                for cell in kept {
                    let px = Float(cell % columns) * s, py = Float(cell / columns) * s
                    let cx = bbox[cell * 4] * s + px, cy = bbox[cell * 4 + 1] * s + py
                    let w = expf(bbox[cell * 4 + 2]) * s, h = expf(bbox[cell * 4 + 3]) * s
                    boxes.append((cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2))
                }
            }
            head(level, 3) { kps in
                for (index, cell) in kept.enumerated() {
                    let px = Float(cell % columns) * s, py = Float(cell / columns) * s
                    var points = [Float](repeating: 0, count: 10)
                    for k in 0..<5 {
                        points[2 * k] = kps[cell * 10 + 2 * k] * s + px
                        points[2 * k + 1] = kps[cell * 10 + 2 * k + 1] * s + py
                    }
                    let b = boxes[index]
                    candidates.append(Candidate(score: scores[cell], xmin: b.0, ymin: b.1, xmax: b.2, ymax: b.3, points: points))
                }
            }
        }
        return suppress(candidates).map { c in
            YuNetDetection(box: Rect(x: c.xmin, y: c.ymin, width: c.xmax - c.xmin, height: c.ymax - c.ymin), score: c.score,
                           landmarks: (0..<5).map { Point(x: c.points[2 * $0], y: c.points[2 * $0 + 1]) })
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
