import CInt8Convolution

/// The constants of an `.int8` first convolution (`FirstConvolution`), one
/// constant-pool block: the 7-bit weights packed for `Int8ConvolutionKernel`
/// (`[KH][G][O8][4]` bytes, see `CInt8Convolution.h`), then per channel
/// (`O8` = O rounded up to 8, zero beyond O) the weight sums Q (Int32 bit
/// patterns), the half scales and the bias.
///
/// The input's normalisation `x = (p − 127.5)/127.5` is folded into the
/// weights: channel c's `w/127.5` is quantized to `q ∈ [−64, 63]` with
/// scale `s = max|w/127.5| / 63`, so
/// `Σ w·x + b = (s/2)·(2·Σ q·p − 255·Σ q) + b`. Seven bits keep every
/// u8·s8 pair sum inside int16 (2·255·64 = 32640), which `vpmaddubsw`
/// needs. Computed once, in plain Swift, at plan time.
package struct Int8ConvolutionWeights {
    package static let largestWeight = 63
    package static let smallestWeight = -64
    /// The largest `windowBytes` the kernels take.
    static let largestWindowBytes = Int(FACEPIPE_QCONV_MAX_WINDOW_BYTES)

    let geometry: WindowGeometry

    init(_ geometry: WindowGeometry) { self.geometry = geometry }

    /// Four-tap groups per kernel row.
    var groupsPerRow: Int { (geometry.kernelWidth * geometry.inChannels + 3) / 4 }
    /// Output channels rounded up to 8.
    var paddedChannels: Int { (geometry.outChannels + 7) / 8 * 8 }
    /// Bytes of one packed window (a border pixel's copy).
    var windowBytes: Int { geometry.kernelHeight * groupsPerRow * 4 }
    /// Offsets in floats from the block's start.
    var sumsOffset: Int { geometry.kernelHeight * groupsPerRow * paddedChannels }
    var halfScalesOffset: Int { sumsOffset + paddedChannels }
    var biasOffset: Int { halfScalesOffset + paddedChannels }
    /// Floats of the block.
    var count: Int { biasOffset + paddedChannels }

    /// Channel c's quantized weights (TFLite's `[KH][KW][I]` tap order) and
    /// half scale `s/2`, from TFLite's `[O][KH][KW][I]` filter.
    package static func quantize(_ weights: [Float], outChannels: Int) -> (weights: [[Int8]], halfScales: [Float]) {
        let (quantized, scales) = perChannel(weights.map { $0 / 127.5 }, outChannels: outChannels, levels: smallestWeight...largestWeight)
        return (quantized, scales.map { $0 / 2 })
    }

    /// Symmetric quantization per output channel of `[O][…]` weights: `q =
    /// round(w/s)` (ties to even) with `s = max|w| / levels.upperBound` (1
    /// for a zero channel), clamped to `levels`.
    package static func perChannel(_ weights: [Float], outChannels: Int, levels: ClosedRange<Int>) -> (weights: [[Int8]], scales: [Float]) {
        let taps = weights.count / outChannels
        var quantized: [[Int8]] = []
        var scales: [Float] = []
        for channel in 0..<outChannels {
            let row = weights[(channel * taps)..<((channel + 1) * taps)]
            let largest = row.reduce(Float(0)) { max($0, abs($1)) }
            let scale = largest > 0 ? largest / Float(levels.upperBound) : 1
            quantized.append(row.map { value in
                let level = (value / scale).rounded(.toNearestOrEven)
                return Int8(min(max(level, Float(levels.lowerBound)), Float(levels.upperBound)))
            })
            scales.append(scale)
        }
        return (quantized, scales)
    }

    /// The block for TFLite's `[O][KH][KW][I]` filter `weights` and `bias`.
    func pack(_ weights: [Float], bias: [Float]) -> [Float] {
        let g = geometry, groups = groupsPerRow, channels = paddedChannels
        let rowTaps = g.kernelWidth * g.inChannels
        let (quantized, halfScales) = Self.quantize(weights, outChannels: g.outChannels)
        var bytes = [UInt8](repeating: 0, count: sumsOffset * 4)
        for channel in 0..<g.outChannels {
            for ky in 0..<g.kernelHeight {
                for tap in 0..<rowTaps {
                    let (group, lane) = tap.quotientAndRemainder(dividingBy: 4)
                    bytes[((ky * groups + group) * channels + channel) * 4 + lane] =
                        UInt8(bitPattern: quantized[channel][ky * rowTaps + tap])
                }
            }
        }
        return Self.poolBlock(bytes: bytes, sums: quantized.map { $0.reduce(Int32(0)) { $0 + Int32($1) } },
                              rows: [halfScales, bias], channels: channels)
    }

    /// An int8 layer's constant-pool block: packed weight `bytes` (a
    /// multiple of 4) as float bit patterns, then per-channel `sums` (Int32
    /// bit patterns; none when nil) and each of `rows`, every one
    /// zero-padded to `channels`.
    static func poolBlock(bytes: [UInt8], sums: [Int32]?, rows: [[Float]], channels: Int) -> [Float] {
        var block = (0..<(bytes.count / 4)).map { index in
            Float(bitPattern: UInt32(bytes[4 * index]) | UInt32(bytes[4 * index + 1]) << 8
                | UInt32(bytes[4 * index + 2]) << 16 | UInt32(bytes[4 * index + 3]) << 24)
        }
        if let sums { block += sums.map { Float(bitPattern: UInt32(bitPattern: $0)) } + repeatElement(0, count: channels - sums.count) }
        for row in rows { block += row + repeatElement(0, count: channels - row.count) }
        return block
    }
}
