/// How the rows of a row-wise step's output depend on the rows of one of
/// its inputs: output row `r` reads input rows
/// `[⌊r / upsample⌋·stride − padTop, ⌊r / upsample⌋·stride − padTop + kernel)`,
/// clipped to the input (rows outside it are zero padding). Elementwise
/// reads and fused residuals are `identity`; a zero PAD of `before` rows is
/// kernel 1, stride 1, `padTop` = `before`; a nearest-neighbour resize by an
/// integral factor k is kernel 1, stride 1, `upsample` = k (each input row
/// gives k output rows).
struct RowDependency: Sendable, Equatable {
    var kernel: Int
    var stride: Int
    var padTop: Int
    var upsample: Int

    static let identity = RowDependency(kernel: 1, stride: 1, padTop: 0)

    init(kernel: Int, stride: Int, padTop: Int, upsample: Int = 1) {
        self.kernel = kernel
        self.stride = stride
        self.padTop = padTop
        self.upsample = upsample
    }

    init(_ geometry: WindowGeometry) {
        self.init(kernel: geometry.kernelHeight, stride: geometry.strideHeight, padTop: geometry.padTop)
    }

    /// The input rows that output rows `rows` (not empty) read, clipped to
    /// `0..<inputHeight` (empty when they all fall in the padding).
    func inputRows(for rows: Range<Int>, inputHeight: Int) -> Range<Int> {
        let low = min(inputHeight, max(0, rows.lowerBound / upsample * stride - padTop))
        let high = min(inputHeight, (rows.upperBound - 1) / upsample * stride - padTop + kernel)
        return low..<max(low, high)
    }

    /// How many output rows, from row 0, can be computed once input rows
    /// `0..<available` exist.
    func computableRows(available: Int, inputHeight: Int, outputHeight: Int) -> Int {
        if available >= inputHeight { return outputHeight }
        // Row r needs rows below ⌊r / upsample⌋·stride − padTop + kernel ≤ available.
        let numerator = available + padTop - kernel
        let last = numerator >= 0 ? numerator / stride : -((-numerator + stride - 1) / stride)
        return min(outputHeight, max(0, (last + 1) * upsample))
    }

    /// The first input row that output rows `next…` still read
    /// (`inputHeight` once every output row is computed).
    func firstNeededRow(next: Int, inputHeight: Int, outputHeight: Int) -> Int {
        next >= outputHeight ? inputHeight : min(inputHeight, max(0, next / upsample * stride - padTop))
    }
}
