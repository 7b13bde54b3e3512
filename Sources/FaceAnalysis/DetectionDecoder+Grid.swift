import Foundation

extension DetectionDecoder {
    /// Decodes a one-anchor-per-cell output grid (BlazeFace full range run
    /// on a `columns·stride × rows·stride` canvas) into detections in canvas
    /// pixels.
    ///
    /// The network regresses boxes and keypoints in input pixels relative to
    /// the cell centre, whatever the input size: MediaPipe divides them by
    /// the 192-px input size and adds the normalized anchor centre, which
    /// at 192 px is the same as `centre_px + raw` here. Scores as `decode`.
    package static func decodeGrid(regressors: UnsafeBufferPointer<Float>, classificators: UnsafeBufferPointer<Float>,
                                   columns: Int, rows: Int, stride: Int, minScore: Float = defaultMinScore,
                                   model: String) throws(FaceAnalysisError) -> [NormalizedDetection] {
        let count = columns * rows
        guard regressors.count == count * 16, classificators.count == count else {
            throw .unexpectedModelShape(model: model,
                detail: "expected \(count)×16 regressors and \(count) scores for a \(columns)×\(rows) grid, got \(regressors.count) and \(classificators.count)")
        }
        let threshold = max(minScore, 0)
        // sigmoid(raw) > threshold  ⇔  raw > logit(threshold): skip the exp for the many empty cells.
        let rawThreshold = threshold <= 0 ? -Float.infinity : (threshold >= 1 ? Float.infinity : Foundation.log(threshold / (1 - threshold)))
        var result: [NormalizedDetection] = []
        for i in 0..<count where classificators[i] > rawThreshold - 1e-3 {
            let raw = min(max(classificators[i], -rawScoreLimit), rawScoreLimit)
            let score = 1 / (1 + Foundation.exp(-raw))
            guard score > threshold else { continue }
            var r = SIMD16<Float>()
            for k in 0..<16 { r[k] = regressors[i * 16 + k] }
            guard r.isFinite else { continue }
            let ax = (Float(i % columns) + 0.5) * Float(stride), ay = (Float(i / columns) + 0.5) * Float(stride)
            let cx = r[0] + ax, cy = r[1] + ay
            let halfW = r[2] / 2, halfH = r[3] / 2
            var c = SIMD16<Float>()
            c[0] = cx - halfW; c[1] = cy - halfH; c[2] = cx + halfW; c[3] = cy + halfH
            for k in 0..<6 {
                c[4 + 2 * k] = r[4 + 2 * k] + ax
                c[5 + 2 * k] = r[5 + 2 * k] + ay
            }
            guard c[2] > c[0], c[3] > c[1] else { continue }
            result.append(NormalizedDetection(coordinates: c, score: score))
        }
        return result
    }
}
