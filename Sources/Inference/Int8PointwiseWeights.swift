import CInt8Convolution

/// The constants of an `.int8` block projection (`PointwiseConvolution`),
/// one constant-pool block: the 7-bit weights packed
/// `[ceil(O/16)][G][16][4]` bytes (`G = ceil(I/4)`, see `int8_pointwise.h`),
/// then per channel (`O16` = O rounded up to 16, zero beyond O) the zero
/// sums `128·Σk` (Int32 bit patterns) and the weight scales.
///
/// Channel o's weights `w` are quantized to `k ∈ [−127, 127]` with scale
/// `t = max|w| / 127` (`Int8ConvolutionWeights.perChannel`). Eight bits
/// rather than the first layer's seven: on the short-range detector seven
/// moved face logits by up to 6 against fp32, eight by about 1. Computed
/// once, in plain Swift, at plan time.
package struct Int8PointwiseWeights {
    package static let largestWeight = 127
    package static let largestInputChannels = Int(FACEPIPE_QPW_MAX_IN_CHANNELS)

    package let inChannels: Int, outChannels: Int

    package init(inChannels: Int, outChannels: Int) {
        self.inChannels = inChannels; self.outChannels = outChannels
    }

    /// Four-channel groups per pixel.
    var groups: Int { (inChannels + 3) / 4 }
    /// Output channels rounded up to 16.
    var paddedChannels: Int { (outChannels + 15) / 16 * 16 }
    /// Offsets in floats from the block's start.
    /// (The weights take `paddedChannels · groups · 4` bytes: one float per group and channel.)
    package var zeroSumsOffset: Int { paddedChannels * groups }
    package var scalesOffset: Int { zeroSumsOffset + paddedChannels }
    /// Floats of the block.
    package var count: Int { scalesOffset + paddedChannels }

    /// The block for TFLite's `[O][1][1][I]` filter `weights`.
    package func pack(_ weights: [Float]) -> [Float] {
        let (quantized, scales) = quantize(weights)
        return Int8ConvolutionWeights.poolBlock(bytes: packed(quantized), sums: quantized.map { 128 * $0.reduce(Int32(0)) { $0 + Int32($1) } },
                                                rows: [scales], channels: paddedChannels)
    }

    /// Each output channel's 8-bit weights and scale (`Int8ConvolutionWeights.perChannel`).
    func quantize(_ weights: [Float]) -> (weights: [[Int8]], scales: [Float]) {
        Int8ConvolutionWeights.perChannel(weights, outChannels: outChannels, levels: -Self.largestWeight...Self.largestWeight)
    }

    /// `quantized` in the kernels' order: `[ceil(O/16)][G][16][4]` bytes, zero beyond I and O.
    func packed(_ quantized: [[Int8]]) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: zeroSumsOffset * 4)
        for channel in 0..<outChannels {
            let (block, lane) = channel.quotientAndRemainder(dividingBy: 16)
            for input in 0..<inChannels {
                let (group, slot) = input.quotientAndRemainder(dividingBy: 4)
                bytes[((block * groups + group) * 16 + lane) * 4 + slot] = UInt8(bitPattern: quantized[channel][input])
            }
        }
        return bytes
    }
}
