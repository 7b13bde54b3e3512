import Foundation

extension DetectionDecoder {
    /// Decodes the output grids of a BlazeFace detector run on a canvas of
    /// `width × height` pixels (multiples of the model's total stride) into
    /// detections in canvas pixels. The outputs hold, layer after layer of
    /// `configuration.strides`, every cell row by row with its
    /// `anchorsPerCell` anchors innermost, as at the model's own input size.
    ///
    /// The network regresses boxes and keypoints in input pixels relative to
    /// the anchor centre, whatever the input size (anchors have a fixed unit
    /// size): MediaPipe divides them by the input size and adds the
    /// normalized anchor centre, which at the native size is the same as
    /// `centre_px + raw` here. Scores as `decode`.
    package static func decodeGrid(regressors: UnsafeBufferPointer<Float>, classificators: UnsafeBufferPointer<Float>,
                                   width: Int, height: Int, configuration: DetectorConfiguration,
                                   minScore: Float = defaultMinScore) throws(FaceAnalysisError) -> [NormalizedDetection] {
        let count = configuration.anchorCount(width: width, height: height)
        guard regressors.count == count * 16, classificators.count == count else {
            throw .unexpectedModelShape(model: configuration.modelFile,
                detail: "expected \(count)×16 regressors and \(count) scores for a \(width)×\(height) canvas, got \(regressors.count) and \(classificators.count)")
        }
        let threshold = max(minScore, 0)
        // sigmoid(raw) > threshold  ⇔  raw > logit(threshold): skip the exp for the many empty cells.
        let rawThreshold = threshold <= 0 ? -Float.infinity : (threshold >= 1 ? Float.infinity : Foundation.log(threshold / (1 - threshold)))
        var result: [NormalizedDetection] = []
        var layerStart = 0
        for (stride, perCell) in zip(configuration.strides, configuration.anchorsPerCell) {
            let columns = width / stride, rows = height / stride
            for i in layerStart..<(layerStart + columns * rows * perCell) where classificators[i] > rawThreshold - 1e-3 {
                let raw = min(max(classificators[i], -rawScoreLimit), rawScoreLimit)
                let score = 1 / (1 + Foundation.exp(-raw))
                guard score > threshold else { continue }
                var r = SIMD16<Float>()
                for k in 0..<16 { r[k] = regressors[i * 16 + k] }
                guard r.isFinite else { continue }
                let cell = (i - layerStart) / perCell
                let ax = (Float(cell % columns) + 0.5) * Float(stride), ay = (Float(cell / columns) + 0.5) * Float(stride)
                guard let c = coordinates(regressed: r, anchorX: ax, anchorY: ay) else { continue }
                result.append(NormalizedDetection(coordinates: c, score: score))
            }
            layerStart += columns * rows * perCell
        }
        return result
    }
}
