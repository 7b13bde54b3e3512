/// The rows of one detector output layer's two streamed heads, scores and
/// box regressors, kept until both are in and then decoded
/// (`DetectionDecoder.decodeGridRow`) and forgotten: the two heads finish
/// their rows at different times. A row none of whose scores can pass
/// `minScore` decodes to nothing as soon as its scores arrive, so its
/// regressors are never read; `needsRegressors` tells the streaming
/// interpreter so, and it does not compute them (`CanvasDetector`; the box
/// heads are about 3 % of `faces`' CPU). The detections are those of
/// decoding the whole grid, in the same order.
package struct DetectionGridRows {
    /// One output layer of the detector: the heads holding its scores and its regressors.
    package struct Layer: Sendable {
        package var stride: Int, anchorsPerCell: Int, columns: Int
        package var scoresHead: Int, regressorsHead: Int

        package init(stride: Int, anchorsPerCell: Int, columns: Int, scoresHead: Int, regressorsHead: Int) {
            self.stride = stride
            self.anchorsPerCell = anchorsPerCell
            self.columns = columns
            self.scoresHead = scoresHead
            self.regressorsHead = regressorsHead
        }
    }

    package let layer: Layer
    package let minScore: Float
    /// Rows `nextRow…` of scores.
    private var scores: [Float] = []
    /// Rows `regressorsStart…` of regressors (never below `nextRow` once decoding has moved on).
    private var regressors: [Float] = []
    private var regressorsStart = 0
    /// The first row not decoded yet.
    private var nextRow = 0

    package init(layer: Layer, minScore: Float) {
        self.layer = layer
        self.minScore = minScore
    }

    private var rowScores: Int { layer.columns * layer.anchorsPerCell }
    private var regressorsEnd: Int { regressorsStart + regressors.count / (16 * rowScores) }

    /// Whether regressor rows `rows` can still be read: not when every one
    /// of them is decoded already (none of their scores could pass).
    package func needsRegressors(_ rows: Range<Int>) -> Bool { rows.upperBound > nextRow }

    /// Takes `head`'s rows `rows` (`values`: the rows' cells, anchors
    /// innermost, 1 or 16 values each). Each head's rows come in order;
    /// regressor rows `needsRegressors` declined are left out.
    package mutating func receive(head: Int, rows: Range<Int>, values: UnsafeBufferPointer<Float>) {
        let n = rowScores
        if head == layer.scoresHead {
            precondition(rows.lowerBound == nextRow + scores.count / n && values.count == rows.count * n, "score rows out of order")
            scores.append(contentsOf: values)
            return
        }
        precondition(head == layer.regressorsHead && values.count == rows.count * 16 * n, "not this layer's regressor rows")
        // Rows decoded without their regressors come first when a window straddles `nextRow`.
        let first = max(rows.lowerBound, nextRow)
        guard first < rows.upperBound else { return }
        if regressors.isEmpty {
            regressorsStart = first
        } else {
            precondition(first == regressorsEnd, "regressor rows out of order")
        }
        regressors.append(contentsOf: UnsafeBufferPointer(rebasing: values[((first - rows.lowerBound) * 16 * n)...]))
    }

    /// Decodes, in order, every row whose scores have arrived and whose
    /// regressors have too or are not needed, then forgets it.
    package mutating func decodeReadyRows(into found: inout [DetectionCandidate]) {
        let n = rowScores, start = nextRow, scoresEnd = nextRow + scores.count / n
        let boxes = regressorsStart..<regressorsEnd
        var row = start
        scores.withUnsafeBufferPointer { s in
            regressors.withUnsafeBufferPointer { r in
                while row < scoresEnd {
                    let i = (row - start) * n
                    let rowScores = UnsafeBufferPointer(rebasing: s[i..<(i + n)])
                    if boxes.contains(row) {
                        let j = (row - boxes.lowerBound) * 16 * n
                        DetectionDecoder.decodeGridRow(scores: rowScores, regressors: UnsafeBufferPointer(rebasing: r[j..<(j + 16 * n)]),
                                                       row: row, stride: layer.stride, anchorsPerCell: layer.anchorsPerCell,
                                                       minScore: minScore, into: &found)
                    } else if DetectionDecoder.gridRowNeedsRegressors(scores: rowScores, minScore: minScore) {
                        break
                    }
                    row += 1
                }
            }
        }
        nextRow = row
        guard row > start else { return }
        scores.removeFirst((row - start) * n)
        let done = min(max(row - regressorsStart, 0), regressors.count / (16 * n))
        regressors.removeFirst(done * 16 * n)
        regressorsStart += done
    }
}
