import Foundation

/// Turns BlazeFace's raw outputs into scored detections (MediaPipe's
/// TensorsToDetections for one class): boxes are anchor offsets in input
/// pixels without `exp`, scores are `sigmoid(clamp(raw, -80, 80))`, and only
/// scores above `minScore` with a positive width and height survive.
package struct DetectionDecoder: Sendable {
    package let configuration: DetectorConfiguration
    package let anchors: [SIMD2<Float>]
    /// Raw score clamp: sigmoid of ±80 is still finite in Float.
    package static let rawScoreLimit: Float = 80
    /// MediaPipe's minimum detection confidence.
    package static let defaultMinScore: Float = 0.5

    package init(configuration: DetectorConfiguration) {
        self.configuration = configuration
        self.anchors = configuration.anchors
    }

    /// - Parameters:
    ///   - regressors: `anchorCount × 16` values.
    ///   - classificators: `anchorCount` logits.
    /// - Returns: detections in anchor order, or an error naming the size mismatch.
    package func decode(regressors: UnsafeBufferPointer<Float>, classificators: UnsafeBufferPointer<Float>,
                        minScore: Float = DetectionDecoder.defaultMinScore) throws(FaceAnalysisError) -> [DetectionCandidate] {
        let count = anchors.count
        guard regressors.count == count * 16, classificators.count == count else {
            throw .unexpectedModelShape(model: configuration.modelFile,
                detail: "expected \(count)×16 regressors and \(count) scores, got \(regressors.count) and \(classificators.count)")
        }
        let scale = 1 / Float(configuration.inputSize)
        let threshold = max(minScore, 0)
        var result: [DetectionCandidate] = []
        for i in 0..<count {
            let raw = min(max(classificators[i], -Self.rawScoreLimit), Self.rawScoreLimit)
            let score = 1 / (1 + Foundation.exp(-raw))
            guard score > threshold else { continue }
            var r = SIMD16<Float>()
            for k in 0..<16 { r[k] = regressors[i * 16 + k] * scale }
            guard r.isFinite else { continue }
            guard let c = Self.coordinates(regressed: r, anchorX: anchors[i].x, anchorY: anchors[i].y) else { continue }
            result.append(DetectionCandidate(coordinates: c, score: score))
        }
        return result
    }
}

extension DetectionDecoder {
    /// Box corners and keypoints from one anchor's regressed values (centre
    /// offset, size, six keypoint offsets) and its centre, in the units of
    /// the regression; `nil` for an empty box.
    @inline(__always)
    static func coordinates(regressed r: SIMD16<Float>, anchorX: Float, anchorY: Float) -> SIMD16<Float>? {
        let cx = r[0] + anchorX, cy = r[1] + anchorY
        let halfW = r[2] / 2, halfH = r[3] / 2
        var c = SIMD16<Float>()
        c[0] = cx - halfW; c[1] = cy - halfH; c[2] = cx + halfW; c[3] = cy + halfH
        for k in 0..<6 {
            c[4 + 2 * k] = r[4 + 2 * k] + anchorX
            c[5 + 2 * k] = r[5 + 2 * k] + anchorY
        }
        return c[2] > c[0] && c[3] > c[1] ? c : nil
    }
}

extension SIMD16<Float> {
    package var isFinite: Bool {
        for i in 0..<16 where !self[i].isFinite { return false }
        return true
    }
}
