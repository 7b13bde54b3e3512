/// The constants of a QS8 1×1 convolution (`ActivationGrids`), one
/// constant-pool block: the 8-bit weights packed as `Int8PointwiseWeights`
/// packs them (`[ceil(O/16)][G][16][4]` bytes), then per output channel
/// (`O16` = O rounded up to 16, zero beyond O) the multipliers and the
/// biases of the epilogue `fma(A, multiplier, bias)` on the exact sum `A`
/// of input bytes times weights (`qs8.h`).
///
/// With weight scale `t` (`Int8PointwiseWeights.quantize`), input step
/// `Sᵢ` and output step `Sₒ`: for a byte output the multiplier is
/// `Sᵢ·t/Sₒ` and the bias `b/Sₒ` (the value in output steps, before
/// rounding); for a float output `Sᵢ·t` and `b`. Computed once, in plain
/// Swift, at plan time.
package struct QS8PointwiseWeights {
    package static let largestInputChannels = Int8PointwiseWeights.largestInputChannels

    let weights: Int8PointwiseWeights

    package init(inChannels: Int, outChannels: Int) {
        weights = Int8PointwiseWeights(inChannels: inChannels, outChannels: outChannels)
    }

    /// Offsets in floats from the block's start.
    package var multipliersOffset: Int { weights.zeroSumsOffset }
    package var biasOffset: Int { multipliersOffset + weights.paddedChannels }
    /// Floats of the block.
    package var count: Int { biasOffset + weights.paddedChannels }

    /// The block for TFLite's `[O][1][1][I]` filter and `bias`, on input
    /// grid step `inputStep`, writing bytes on `outputStep` (nil: floats).
    package func pack(_ filter: [Float], bias: [Float], inputStep: Float, outputStep: Float?) -> [Float] {
        let (quantized, scales) = weights.quantize(filter)
        let multipliers = scales.map { inputStep * $0 / (outputStep ?? 1) }
        let biases = bias.map { $0 / (outputStep ?? 1) }
        return Int8ConvolutionWeights.poolBlock(bytes: weights.packed(quantized), sums: nil, rows: [multipliers, biases],
                                                channels: weights.paddedChannels)
    }
}
