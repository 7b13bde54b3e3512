import Inference
import InferenceWide
import Testing
import _TestSupport

/// The 16-lane 24-channel windowed interior against a scalar convolution
/// that sums the taps in the same order with fused multiply-adds: every
/// output must be bit-identical (the 8-lane kernel computes exactly this).
@Suite struct WideWindowed24Tests {
    @Test(.enabled(if: KernelWidth.lanes16.isAvailable, "this CPU has no AVX-512"), arguments: ActivationKind.allCases, [4, 8])
    func pixelsMatchTheScalarSumsBitForBit(_ kind: ActivationKind, _ pixels: Int) {
        // A 5×5, stride-2 convolution over 3 channels, as the short-range detector's first layer.
        let kernel = 5, inC = 3, stride = 2, inWidth = 2 * pixels + 8, inHeight = 5, outC = 24
        let taps = kernel * kernel * inC, rowRun = kernel * inC
        var generator = SplitMix64(seed: 24)
        let input = (0..<(inWidth * inHeight * inC + 16)).map { _ in generator.unitFloat() * 2 - 1 }
        let filter = (0..<(outC * taps)).map { _ in generator.unitFloat() - 0.5 }
        let bias = (0..<(outC + 16)).map { _ in generator.unitFloat() * 4 - 2 }
        let slopes = (0..<(outC + 16)).map { _ in generator.unitFloat() }
        let packed = WideWindowed24.pack(filter, taps: taps) + [Float](repeating: 0, count: 16)
        var output = [Float](repeating: .nan, count: pixels * outC)
        let run = pixels == 8 ? WideWindowed24.eightPixels : WideWindowed24.fourPixels

        input.withUnsafeBufferPointer { x in
            packed.withUnsafeBufferPointer { w in
                bias.withUnsafeBufferPointer { b in
                    slopes.withUnsafeBufferPointer { a in
                        output.withUnsafeMutableBufferPointer { out in
                            run(x.baseAddress!, stride * inC, inWidth * inC, rowRun, 0, kernel, w.baseAddress!,
                                b.baseAddress!, kind.wide(slopes: a.baseAddress!), out.baseAddress!)
                        }
                    }
                }
            }
        }
        for pixel in 0..<pixels {
            for channel in 0..<outC {
                var sum: Float = 0
                for ky in 0..<kernel {
                    for k in 0..<rowRun {
                        let value = input[ky * inWidth * inC + pixel * stride * inC + k]
                        sum = sum.addingProduct(value, filter[channel * taps + ky * rowRun + k])
                    }
                }
                let expected = kind.reference(sum + bias[channel], slope: slopes[channel])
                #expect(output[pixel * outC + channel].bitPattern == expected.bitPattern,
                        "pixel \(pixel) channel \(channel): \(output[pixel * outC + channel]) against \(expected)")
            }
        }
    }

    /// Whole windowed steps on maps whose interior is not a multiple of
    /// eight pixels: 5×5/2 with 24 outputs (the detector's first layer,
    /// `WideWindowed24`) and 3×3/2 with 16 or 32 (Face Mesh's and the
    /// full-range detector's, `WideWindowedBlocks`). The 16-lane plan
    /// (eight-pixel groups, the last one overlapping its neighbour) equals
    /// the 8-lane plan bit for bit, borders included.
    @Test(.enabled(if: KernelWidth.lanes16.isAvailable, "this CPU has no AVX-512"),
          arguments: [(7, 16, Int8(0)), (9, 23, 0), (6, 37, 0), (11, 64, 1), (5, 21, 1), (8, 9, 0)], [(5, 24), (3, 16), (3, 32)])
    func stepMatchesTheNarrowKernelBitForBit(_ map: (Int, Int, Int8), _ layer: (kernel: Int, outChannels: Int)) throws {
        let (height, width, padding) = map
        for activation: Int8 in [0, 1] {
            let file = TinyConvModel.convolution(height: height, width: width, inChannels: 3, outChannels: layer.outChannels,
                                                 kernel: layer.kernel, stride: 2, padding: padding, activation: activation,
                                                 seed: UInt64(width)).serialized()
            let narrow = try Model(bytes: file, kernels: .lanes8)
            let wide = try Model(bytes: file, kernels: .lanes16)
            var generator = SplitMix64(seed: UInt64(height * width))
            let input = (0..<(height * width * 3)).map { _ in generator.unitFloat() * 2 - 1 }
            let expected = try Interpreter(model: narrow).run([input])[0]
            let got = try Interpreter(model: wide).run([input])[0]
            #expect(got.map(\.bitPattern) == expected.map(\.bitPattern),
                    "\(layer.kernel)×\(layer.kernel)/2 → \(layer.outChannels) on \(height)×\(width), padding \(padding), activation \(activation)")
        }
    }
}
