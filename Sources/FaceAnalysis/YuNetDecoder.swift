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
        var candidates: [[DetectionCandidate]] = Array(repeating: [], count: YuNetGraph.strides.count)

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
                var c = SIMD16<Float>()
                c[0] = cx - w / 2; c[1] = cy - h / 2; c[2] = cx + w / 2; c[3] = cy + h / 2
                for k in 0..<5 {
                    c[4 + 2 * k] = heads[kps + 2 * k] * s + px
                    c[5 + 2 * k] = heads[kps + 2 * k + 1] * s + py
                }
                candidates[level].append(DetectionCandidate(coordinates: c, score: score))
            }
        }

        /// Every level's candidates, sorted, limited and suppressed as
        /// libfacedetection does, in input pixels with YuNet's five landmarks
        /// (`Landmark` order) as keypoints.
        package func detections() -> [FaceDetection] {
            NonMaximumSuppression.greedy(candidates.flatMap { $0 }, overlapThreshold: overlapThreshold,
                                         candidateLimit: preNMSLimit, keepLimit: keepLimit).map(face)
        }
    }

    /// YuNet's five landmarks, as ``FaceDetection/keypoints`` of what
    /// ``YuNetDetector`` returns. Sides are the subject's (OpenCV's
    /// FaceDetectorYN order): `rightEye` is on the picture's left for a
    /// face looking at the camera.
    package enum Landmark: Int, CaseIterable {
        case rightEye = 0, leftEye, noseTip, mouthRight, mouthLeft
    }

    /// The same greedy NMS, without limits, over faces of several regions
    /// (tiles and levels of a `SearchPlan`), in the order given for equal scores.
    static func suppress(_ faces: [FaceDetection]) -> [FaceDetection] {
        NonMaximumSuppression.greedy(faces.map(DetectionCandidate.init(pixels:)), overlapThreshold: overlapThreshold).map(face)
    }

    /// A decoded candidate in pixels as a face found by YuNet-s (five keypoints).
    static func face(_ d: DetectionCandidate) -> FaceDetection {
        let c = d.coordinates
        return FaceDetection(box: Rect(x: c[0], y: c[1], width: c[2] - c[0], height: c[3] - c[1]), score: d.score,
                             keypoints: (0..<5).map { Point(x: c[4 + 2 * $0], y: c[5 + 2 * $0]) }, foundBy: .yunet)
    }
}
