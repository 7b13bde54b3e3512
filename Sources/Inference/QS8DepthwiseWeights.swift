/// The constants of a QS8 3×3 depthwise convolution (`ActivationGrids`),
/// one constant-pool block: the taps as bytes `[9][C]` (row-major window,
/// then channel; zero-padded to whole floats), then per channel the
/// multipliers and the biases of the epilogue `fma(A, multiplier, bias)` on
/// the exact sum `A` of `(byte − 128)` times taps (`qs8.h`).
///
/// Channel c's nine taps are quantized to `k ∈ [−127, 127]` with scale
/// `t = max|w| / 127` (`Int8ConvolutionWeights.perChannel`); with input
/// step `Sᵢ` and output step `Sₒ` the multiplier is `Sᵢ·t/Sₒ` and the bias
/// `b/Sₒ`. Computed once, in plain Swift, at plan time.
package struct QS8DepthwiseWeights {
    package let channels: Int

    package init(channels: Int) { self.channels = channels }

    /// Offsets in floats from the block's start.
    package var multipliersOffset: Int { (9 * channels + 3) / 4 }
    package var biasOffset: Int { multipliersOffset + channels }
    /// Floats of the block.
    package var count: Int { biasOffset + channels }

    /// The taps of TFLite's `[1][3][3][C]` filter per channel (`[C][9]`), quantized, and their scales.
    package func quantize(_ filter: [Float]) -> (taps: [[Int8]], scales: [Float]) {
        var perChannel: [Float] = []
        perChannel.reserveCapacity(9 * channels)
        for channel in 0..<channels {
            for tap in 0..<9 { perChannel.append(filter[tap * channels + channel]) }
        }
        let (taps, scales) = Int8ConvolutionWeights.perChannel(perChannel, outChannels: channels, levels: -127...127)
        return (taps, scales)
    }

    /// The block for TFLite's `[1][3][3][C]` filter and `bias` on input step `inputStep`, output step `outputStep`.
    package func pack(_ filter: [Float], bias: [Float], inputStep: Float, outputStep: Float) -> [Float] {
        let (taps, scales) = quantize(filter)
        var bytes = [UInt8](repeating: 0, count: multipliersOffset * 4)
        for channel in 0..<channels {
            for tap in 0..<9 { bytes[tap * channels + channel] = UInt8(bitPattern: taps[channel][tap]) }
        }
        return Int8ConvolutionWeights.poolBlock(bytes: bytes, sums: nil, rows: [scales.map { inputStep * $0 / outputStep }, bias.map { $0 / outputStep }],
                                                channels: channels)
    }
}
