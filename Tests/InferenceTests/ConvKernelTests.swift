import Inference
import InferenceWide
import Testing
import _TestSupport

/// The conv family (any window, stride and padding): every variant's whole
/// steps against `WindowReference.convolution` bit for bit — borders,
/// padding rows, interiors narrower than a tile and interiors that are not
/// a multiple of the tile — and the AVX-512 24-channel interior alone for
/// every activation.
@Suite struct ConvKernelTests {
    /// Output maps (height, width, padding, stride).
    static let maps: [(Int, Int, Int8, Int)] = [(7, 16, 0, 2), (9, 23, 0, 2), (6, 37, 0, 2), (11, 64, 1, 2), (5, 21, 1, 2),
                                                (8, 9, 0, 2), (6, 13, 0, 1)]
    /// (kernel name, window, output channels) on the 8-lane set.
    static let avx2Layers = [("conv_4x16_avx2", 3, 16), ("conv_4x16_avx2", 3, 40), ("conv_4x16_avx2", 5, 8),
                             ("conv_4x24_avx2", 5, 24), ("conv_4x24_avx2", 3, 20)]
    /// (kernel name, window, output channels) on the AVX-512 set.
    static let avx512Layers = [("conv_8x24_avx512_interior_avx2_border", 5, 24), ("conv_8x16_avx512_interior_avx2_border", 3, 16),
                               ("conv_8x32_avx512_interior_avx2_border", 3, 32), ("conv_4x16_avx2", 3, 40)]

    @Test(arguments: avx2Layers, maps)
    func avx2Kernels(_ layer: (String, Int, Int), _ map: (Int, Int, Int8, Int)) throws {
        try check(.avx2, layer, map)
    }

    @Test(.avx512, arguments: avx512Layers, maps)
    func avx512Kernels(_ layer: (String, Int, Int), _ map: (Int, Int, Int8, Int)) throws {
        try check(.avx512, layer, map)
    }

    private func check(_ kernels: KernelSet, _ layer: (name: String, kernel: Int, outChannels: Int),
                       _ map: (height: Int, width: Int, padding: Int8, stride: Int)) throws {
        let inChannels = 3
        for activation: Int8 in [0, 1, 3] {
            let tiny = TinyConvModel.convolution(height: map.height, width: map.width, inChannels: inChannels,
                                                 outChannels: layer.outChannels, kernel: layer.kernel, stride: map.stride,
                                                 padding: map.padding, activation: activation, seed: UInt64(map.width))
            let model = try Model(bytes: tiny.serialized(), kernels: kernels)
            #expect(model.stepSummaries.map(\.kernel) == [layer.name])
            var generator = SplitMix64(seed: UInt64(map.height * map.width))
            let input = (0..<(map.height * map.width * inChannels)).map { _ in generator.unitFloat() * 2 - 1 }
            let got = try Interpreter(model: model).run([input])[0]
            let shape = WindowReference.Shape(height: map.height, width: map.width, kernel: layer.kernel, stride: map.stride,
                                              padding: map.padding)
            let expected = WindowReference.convolution(input, shape, inChannels: inChannels, weights: tiny.weights,
                                                       bias: tiny.bias, activation: activation)
            #expect(got.map(\.bitPattern) == expected.map(\.bitPattern),
                    "\(layer.name) \(layer.kernel)×\(layer.kernel)/\(map.stride) on \(map.height)×\(map.width), padding \(map.padding), activation \(activation)")
        }
    }

    /// `ConvInterior24AVX512`'s four- and eight-pixel calls, every activation.
    @Test(.avx512, arguments: ActivationKind.allCases, [4, 8])
    func pixelsMatchTheScalarSumsBitForBit(_ kind: ActivationKind, _ pixels: Int) {
        // A 5×5, stride-2 convolution over 3 channels, as the short-range detector's first layer.
        let kernel = 5, inC = 3, stride = 2, inWidth = 2 * pixels + 8, inHeight = 5, outC = 24
        let taps = kernel * kernel * inC, rowRun = kernel * inC
        var generator = SplitMix64(seed: 24)
        let input = (0..<(inWidth * inHeight * inC + 16)).map { _ in generator.unitFloat() * 2 - 1 }
        let filter = (0..<(outC * taps)).map { _ in generator.unitFloat() - 0.5 }
        let bias = (0..<(outC + 16)).map { _ in generator.unitFloat() * 4 - 2 }
        let slopes = (0..<(outC + 16)).map { _ in generator.unitFloat() }
        let packed = ConvInterior24AVX512.pack(filter, taps: taps) + [Float](repeating: 0, count: 16)
        var output = [Float](repeating: .nan, count: pixels * outC)
        let run = pixels == 8 ? ConvInterior24AVX512.eightPixels : ConvInterior24AVX512.fourPixels

        input.withUnsafeBufferPointer { x in
            packed.withUnsafeBufferPointer { w in
                bias.withUnsafeBufferPointer { b in
                    slopes.withUnsafeBufferPointer { a in
                        output.withUnsafeMutableBufferPointer { out in
                            run(x.baseAddress!, stride * inC, inWidth * inC, rowRun, 0, kernel, w.baseAddress!,
                                b.baseAddress!, kind.avx512(slopes: a.baseAddress!), out.baseAddress!)
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
}
