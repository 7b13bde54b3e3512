import Inference
import InferenceWide
import Testing
import _TestSupport

/// The 16-lane flat depthwise row against a scalar 3×3 depthwise that sums
/// the taps in the same order with fused multiply-adds: every output must be
/// bit-identical (the 8-lane kernel computes exactly this).
@Suite struct WideDepthwise3x3Tests {
    @Test(.enabled(if: KernelWidth.lanes16.isAvailable, "this CPU has no AVX-512"),
          arguments: [8, 24, 28, 42, 96], ActivationKind.allCases)
    func rowMatchesTheScalarSumsBitForBit(_ channels: Int, _ kind: ActivationKind) {
        // 13 output pixels: whole blocks of four vectors, single vectors and a partial tail for every channel count.
        let pixels = 13, inWidth = pixels + 2, rowFloats = inWidth * channels
        var generator = SplitMix64(seed: UInt64(channels))
        let input = (0..<(3 * rowFloats + 16)).map { _ in generator.unitFloat() * 2 - 1 }
        let weights = (0..<(9 * channels)).map { _ in generator.unitFloat() - 0.5 }
        let bias = (0..<channels).map { _ in generator.unitFloat() * 2 - 1 }
        let slopes = (0..<channels).map { _ in generator.unitFloat() }
        let table = WideDepthwise3x3.pack(weights: weights, bias: bias, slopes: kind == .prelu ? slopes : nil, channels: channels)
        let count = pixels * channels
        var output = [Float](repeating: .nan, count: count + 16)
        input.withUnsafeBufferPointer { x in
            table.withUnsafeBufferPointer { t in
                output.withUnsafeMutableBufferPointer { out in
                    // `.prelu`'s pointer is ignored: the slopes are in the table.
                    WideDepthwise3x3.row(input: x.baseAddress!, rowFloats: rowFloats, channels: channels, table: t.baseAddress!,
                                         count: count, activation: kind.wide(slopes: t.baseAddress!), output: out.baseAddress!)
                }
            }
        }
        for pixel in 0..<pixels {
            for channel in 0..<channels {
                var sum: Float = 0
                for ky in 0..<3 {
                    for kx in 0..<3 {
                        sum = sum.addingProduct(input[ky * rowFloats + (pixel + kx) * channels + channel],
                                                weights[(ky * 3 + kx) * channels + channel])
                    }
                }
                let expected = kind.reference(sum + bias[channel], slope: slopes[channel])
                let got = output[pixel * channels + channel]
                #expect(got.bitPattern == expected.bitPattern, "pixel \(pixel) channel \(channel): \(got) against \(expected)")
            }
        }
        let untouched = output[count...].allSatisfy { $0.isNaN }
        #expect(untouched, "wrote past the row")
    }

    /// Whole steps (borders, padding rows, tiny maps) through a hand-built
    /// DEPTHWISE_CONV_2D: the 16-lane plan's outputs equal the 8-lane plan's bit for bit.
    @Test(.enabled(if: KernelWidth.lanes16.isAvailable, "this CPU has no AVX-512"),
          arguments: [(5, 7, 24, Int8(0)), (1, 1, 8, 0), (2, 3, 28, 0), (6, 4, 42, 0), (9, 11, 32, 1), (4, 19, 96, 0)])
    func stepMatchesTheNarrowKernelBitForBit(_ height: Int, _ width: Int, _ channels: Int, _ padding: Int8) throws {
        for activation: Int8 in [0, 1, 3] {
            let file = TinyConvModel.depthwise(height: height, width: width, channels: channels, padding: padding,
                                               activation: activation, seed: UInt64(channels + Int(activation))).serialized()
            let narrow = try Model(bytes: file, kernels: .lanes8)
            let wide = try Model(bytes: file, kernels: .lanes16)
            var generator = SplitMix64(seed: UInt64(height * width))
            let input = (0..<(height * width * channels)).map { _ in generator.unitFloat() * 4 - 2 }
            let expected = try Interpreter(model: narrow).run([input])[0]
            let got = try Interpreter(model: wide).run([input])[0]
            #expect(got.map(\.bitPattern) == expected.map(\.bitPattern),
                    "\(height)×\(width)×\(channels), padding \(padding), activation \(activation)")
        }
    }
}
