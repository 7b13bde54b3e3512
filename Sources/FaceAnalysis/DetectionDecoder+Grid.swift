import Foundation

extension DetectionDecoder {
    /// Decodes the output grids of a BlazeFace detector run on a canvas of
    /// `width × height` pixels (multiples of the model's total stride) into
    /// detections in canvas pixels. The outputs hold, layer after layer of
    /// `configuration.strides`, every cell row by row with its
    /// `anchorsPerCell` anchors innermost, as at the model's own input size.
    /// Each row is decoded by `decodeGridRow`.
    package static func decodeGrid(regressors: UnsafeBufferPointer<Float>, classificators: UnsafeBufferPointer<Float>,
                                   width: Int, height: Int, configuration: DetectorConfiguration,
                                   minScore: Float = defaultMinScore) throws(FaceAnalysisError) -> [DetectionCandidate] {
        let count = configuration.anchorCount(width: width, height: height)
        guard regressors.count == count * 16, classificators.count == count else {
            throw .unexpectedModelShape(model: configuration.modelFile,
                detail: "expected \(count)×16 regressors and \(count) scores for a \(width)×\(height) canvas, got \(regressors.count) and \(classificators.count)")
        }
        var result: [DetectionCandidate] = []
        var layerStart = 0
        for (stride, perCell) in zip(configuration.strides, configuration.anchorsPerCell) {
            let columns = width / stride, rows = height / stride, rowAnchors = columns * perCell
            for row in 0..<rows {
                let start = layerStart + row * rowAnchors
                decodeGridRow(scores: UnsafeBufferPointer(rebasing: classificators[start..<(start + rowAnchors)]),
                              regressors: UnsafeBufferPointer(rebasing: regressors[(start * 16)..<((start + rowAnchors) * 16)]),
                              row: row, stride: stride, anchorsPerCell: perCell, minScore: minScore, into: &result)
            }
            layerStart += columns * rows * perCell
        }
        return result
    }

    /// Decodes one row of cells of one output layer: `scores` holds the
    /// row's cells left to right with their `anchorsPerCell` anchors
    /// innermost, `regressors` 16 values per anchor in the same order.
    ///
    /// The network regresses boxes and keypoints in input pixels relative to
    /// the anchor centre, whatever the input size (anchors have a fixed unit
    /// size): MediaPipe divides them by the input size and adds the
    /// normalized anchor centre, which at the native size is the same as
    /// `centre_px + raw` here. Scores as `decode`.
    package static func decodeGridRow(scores: UnsafeBufferPointer<Float>, regressors: UnsafeBufferPointer<Float>,
                                      row: Int, stride: Int, anchorsPerCell: Int, minScore: Float,
                                      into result: inout [DetectionCandidate]) {
        precondition(regressors.count == scores.count * 16 && scores.count % anchorsPerCell == 0, "a grid row's scores and regressors disagree")
        let threshold = max(minScore, 0), candidate = candidateFloor(minScore: minScore)
        let ay = (Float(row) + 0.5) * Float(stride)
        for i in scores.indices where scores[i] > candidate {
            let raw = min(max(scores[i], -rawScoreLimit), rawScoreLimit)
            let score = 1 / (1 + Foundation.exp(-raw))
            guard score > threshold else { continue }
            var r = SIMD16<Float>()
            for k in 0..<16 { r[k] = regressors[i * 16 + k] }
            guard r.isFinite else { continue }
            let ax = (Float(i / anchorsPerCell) + 0.5) * Float(stride)
            guard let c = coordinates(regressed: r, anchorX: ax, anchorY: ay) else { continue }
            result.append(DetectionCandidate(coordinates: c, score: score))
        }
    }

    /// The raw score a cell must exceed for `decodeGridRow` to look at its
    /// box: sigmoid(raw) > minScore ⇔ raw > logit(minScore), less a margin
    /// (the exact test follows on the sigmoid), so the exp is skipped for
    /// the many empty cells.
    static func candidateFloor(minScore: Float) -> Float {
        let threshold = max(minScore, 0)
        let logit = threshold <= 0 ? -Float.infinity : (threshold >= 1 ? Float.infinity : Foundation.log(threshold / (1 - threshold)))
        return logit - 1e-3
    }

    /// Whether `decodeGridRow` would read any regressor of a row with these
    /// `scores`: when not, the row decodes to nothing without its boxes.
    static func gridRowNeedsRegressors(scores: UnsafeBufferPointer<Float>, minScore: Float) -> Bool {
        let candidate = candidateFloor(minScore: minScore)
        return scores.contains { $0 > candidate }
    }
}
