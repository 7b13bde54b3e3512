import Inference
import InferenceWide
import Testing
import _TestSupport

/// The fp32 CONV_2D family (`ConvolutionKernel.all`): every kernel's whole
/// steps against `WindowReference.convolution` bit for bit, on the layers
/// of `layers` the planner gives it in either kernel set — 1×1 tiles
/// (pairs of blocks, an odd block, a last block of at most 8 channels, a
/// single partial block, leftover pixels), windows with borders, padding
/// rows, interiors narrower than a tile and interiors that are not a
/// multiple of it — and the AVX-512 24-channel interior alone for every
/// activation.
@Suite struct ConvKernelTests {
    /// One CONV_2D on a `height`×`width`×`inChannels` input; padding 0 SAME, 1 VALID.
    struct Layer: CustomStringConvertible {
        var window: Int, stride: Int, outChannels: Int
        var height: Int, width: Int, inChannels: Int, padding: Int8

        var shape: MicroKernelShape {
            MicroKernelShape(kernelHeight: window, kernelWidth: window, strideHeight: stride, strideWidth: stride,
                             outChannels: outChannels, isPointwise: window == 1 && stride == 1, fusedAdd: false)
        }

        var description: String {
            "\(window)×\(window)/\(stride) \(inChannels) → \(outChannels) on \(height)×\(width), padding \(padding)"
        }
    }

    /// 1×1 layers on a 5×7×24 input, 2 to 96 output channels.
    static let pointwise = [2, 6, 8, 16, 24, 28, 36, 48, 56, 72, 88, 96].map {
        Layer(window: 1, stride: 1, outChannels: $0, height: 5, width: 7, inChannels: 24, padding: 1)
    }
    /// Windowed layers (window, output channels) on 3-channel maps (height, width, padding, stride).
    static let windowed = [(3, 16), (3, 40), (5, 8), (5, 24), (3, 20), (3, 32)].flatMap { window, outChannels in
        [(7, 16, 0, 2), (9, 23, 0, 2), (6, 37, 0, 2), (11, 64, 1, 2), (5, 21, 1, 2), (8, 9, 0, 2), (6, 13, 0, 1)].map {
            (height: Int, width: Int, padding: Int8, stride: Int) in
            Layer(window: window, stride: stride, outChannels: outChannels, height: height, width: width, inChannels: 3,
                  padding: padding)
        }
    }
    static let layers = pointwise + windowed

    /// Each kernel of the list on every layer the planner gives it, in
    /// every kernel set this machine has; a kernel no layer reaches fails.
    @Test(arguments: ConvolutionKernel.all)
    func everyKernelMatchesTheReferenceBitForBit(_ kernel: ConvolutionKernel) throws {
        try requireRunnable(kernel)
        var checked = 0
        for set in KernelSet.allCases where set.isAvailable {
            for layer in Self.layers where ConvolutionKernel.best(for: layer.shape, features: set.features(on: .current)) == kernel {
                try check(kernel, set, layer)
                checked += 1
            }
        }
        #expect(checked > 0, "no layer of ConvKernelTests.layers is planned with \(kernel): add one")
    }

    private func check(_ kernel: ConvolutionKernel, _ kernels: KernelSet, _ layer: Layer) throws {
        for activation: Int8 in [0, 1, 3] {
            let tiny = TinyConvModel.convolution(height: layer.height, width: layer.width, inChannels: layer.inChannels,
                                                 outChannels: layer.outChannels, kernel: layer.window, stride: layer.stride,
                                                 padding: layer.padding, activation: activation,
                                                 seed: UInt64(layer.window == 1 ? layer.outChannels : layer.width))
            let model = try Model(bytes: tiny.serialized(), kernels: kernels)
            #expect(model.stepSummaries.map(\.kernel) == [kernel.rawValue], "\(layer) in the \(kernels) set")
            var generator = SplitMix64(seed: UInt64(layer.window == 1 ? layer.outChannels + 1 : layer.height * layer.width))
            let scale: Float = layer.window == 1 ? 8 : 2
            let input = (0..<(layer.height * layer.width * layer.inChannels)).map { _ in generator.unitFloat() * scale - scale / 2 }
            let got = try Interpreter(model: model).run([input])[0]
            let shape = WindowReference.Shape(height: layer.height, width: layer.width, kernel: layer.window, stride: layer.stride,
                                              padding: layer.padding)
            let expected = WindowReference.convolution(input, shape, inChannels: layer.inChannels, weights: tiny.weights,
                                                       bias: tiny.bias, activation: activation)
            #expect(got.map(\.bitPattern) == expected.map(\.bitPattern),
                    "\(kernel) in the \(kernels) set: \(layer), activation \(activation)")
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
