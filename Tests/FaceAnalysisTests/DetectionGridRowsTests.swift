import FaceAnalysis
import Testing
import _TestSupport

/// `DetectionGridRows` against decoding each whole row: whatever bands the
/// two heads arrive in, and with the regressor rows it declines left out,
/// it finds the same detections in the same order.
struct DetectionGridRowsTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var anchorsPerCell: Int, minScore: Float, seed: UInt64
        var testDescription: String { "\(anchorsPerCell) anchors, minScore \(minScore), seed \(seed)" }
    }

    static let cases = [Case(anchorsPerCell: 2, minScore: 0.6, seed: 1), Case(anchorsPerCell: 6, minScore: 0.6, seed: 2),
                        Case(anchorsPerCell: 2, minScore: 0.02, seed: 3), Case(anchorsPerCell: 1, minScore: 0.5, seed: 4)]

    /// A grid of `rows × columns` cells whose scores are far below the
    /// threshold except in a few rows, each with a cell or two around it.
    static func grid(rows: Int, columns: Int, anchors: Int, seed: UInt64) -> (scores: [Float], regressors: [Float]) {
        var generator = SplitMix64(seed: seed)
        let n = columns * anchors
        var scores = (0..<(rows * n)).map { _ in -6 - generator.unitFloat() * 4 }
        for row in 0..<rows where generator.unitFloat() < 0.2 {
            for _ in 0..<(1 + Int(generator.unitFloat() * 2)) {
                scores[row * n + Int(generator.unitFloat() * Float(n))] = (generator.unitFloat() - 0.5) * 6
            }
        }
        // Offsets and keypoints around the anchor; widths and heights (values 2 and 3) positive.
        let regressors = (0..<(rows * n * 16)).map { k in
            k % 16 == 2 || k % 16 == 3 ? 10 + generator.unitFloat() * 30 : (generator.unitFloat() - 0.5) * 30
        }
        return (scores, regressors)
    }

    @Test(arguments: cases)
    func bandsAndDeclinedRowsDecodeAsWholeRows(_ c: Case) {
        let rows = 61, columns = 23, n = columns * c.anchorsPerCell
        let (scores, regressors) = Self.grid(rows: rows, columns: columns, anchors: c.anchorsPerCell, seed: c.seed)
        var expected: [DetectionCandidate] = []
        scores.withUnsafeBufferPointer { s in
            regressors.withUnsafeBufferPointer { r in
                for row in 0..<rows {
                    DetectionDecoder.decodeGridRow(scores: UnsafeBufferPointer(rebasing: s[(row * n)..<((row + 1) * n)]),
                                                   regressors: UnsafeBufferPointer(rebasing: r[(row * 16 * n)..<((row + 1) * 16 * n)]),
                                                   row: row, stride: 8, anchorsPerCell: c.anchorsPerCell, minScore: c.minScore, into: &expected)
                }
            }
        }
        #expect(expected.count >= 3, "the grid should hold detections")

        // Scores in bands of 1–5 rows; the regressors of each band either
        // right after it (as the interpreter computes them) or lagging a band.
        var generator = SplitMix64(seed: c.seed &+ 100)
        let layer = DetectionGridRows.Layer(stride: 8, anchorsPerCell: c.anchorsPerCell, columns: columns, scoresHead: 0, regressorsHead: 1)
        var grid = DetectionGridRows(layer: layer, minScore: c.minScore)
        var found: [DetectionCandidate] = []
        var pending: [Range<Int>] = []
        var declined = 0
        func deliverRegressors(_ band: Range<Int>) {
            guard grid.needsRegressors(band) else {
                declined += band.count
                return
            }
            regressors.withUnsafeBufferPointer { r in
                grid.receive(head: 1, rows: band, values: UnsafeBufferPointer(rebasing: r[(band.lowerBound * 16 * n)..<(band.upperBound * 16 * n)]))
            }
            grid.decodeReadyRows(into: &found)
        }
        var row = 0
        while row < rows {
            let band = row..<min(rows, row + 1 + Int(generator.unitFloat() * 5))
            scores.withUnsafeBufferPointer { s in
                grid.receive(head: 0, rows: band, values: UnsafeBufferPointer(rebasing: s[(band.lowerBound * n)..<(band.upperBound * n)]))
            }
            grid.decodeReadyRows(into: &found)
            pending.append(band)
            if generator.unitFloat() < 0.6 || pending.count > 1 { deliverRegressors(pending.removeFirst()) }
            row = band.upperBound
        }
        pending.forEach(deliverRegressors)
        #expect(found == expected)
        if c.minScore >= 0.5 { #expect(declined > rows / 2, "rows without a candidate should not need their regressors") }
    }
}
