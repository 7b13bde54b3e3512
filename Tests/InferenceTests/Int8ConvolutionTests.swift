import Foundation
import Inference
import Testing
import _TestSupport

/// The int8 first-convolution family (`Int8ConvolutionKernel.all`): every
/// kernel against `Int8Reference` bit for bit (a kernel the CPU lacks is
/// skipped with its reason) — SAME and
/// VALID padding, odd sizes, interiors narrower than the window, channel
/// counts that end in a partial vector — and the real detector planned
/// with an int8 first layer: the same bits from every kernel, close to fp32.
@Suite struct Int8ConvolutionTests {
    /// Maps (height, width, padding, stride); padding 0 SAME, 1 VALID.
    static let maps: [(Int, Int, Int8, Int)] = [(7, 16, 0, 2), (9, 23, 0, 2), (6, 37, 0, 2), (11, 64, 1, 2), (5, 21, 1, 2),
                                                (3, 4, 0, 2), (6, 13, 0, 1), (1, 1, 0, 1)]
    /// (window, output channels).
    static let layers = [(5, 24), (3, 16), (5, 8), (3, 20), (5, 40), (1, 3)]

    @Test(arguments: Int8ConvolutionKernel.all, layers)
    func everyKernelMatchesTheReferenceBitForBit(_ kernel: Int8ConvolutionKernel, _ layer: (Int, Int)) throws {
        try requireRunnable(kernel)
        let (window, outChannels) = layer
        for (height, width, padding, stride) in Self.maps where padding == 0 || (height >= window && width >= window) {
            for activation: Int8 in [0, 1, 3] {
                var tiny = TinyConvModel.convolution(height: height, width: width, inChannels: 3, outChannels: outChannels, kernel: window,
                                                     stride: stride, padding: padding, activation: activation, seed: UInt64(width * 31 + window))
                // Pixels of both extremes, weights of both signs and one channel of zeros.
                tiny.weights = tiny.weights.enumerated().map { $0.offset / (window * window * 3) == 1 ? 0 : $0.element * 3 }
                let model = try Model(bytes: tiny.serialized(), firstConvolution: .int8)
                var generator = SplitMix64(seed: UInt64(height * width))
                let pixels = (0..<(height * width * 3)).map { index -> UInt8 in
                    index % 17 == 0 ? 255 : index % 19 == 0 ? 0 : UInt8(generator.next() >> 56)
                }
                let expected = Int8Reference.convolution(pixels, .init(height: height, width: width, kernel: window, stride: stride, padding: padding),
                                                         inChannels: 3, weights: tiny.weights, bias: tiny.bias, activation: activation)
                let got = try Self.run(model.replacingInt8Kernel(with: kernel), pixels)
                #expect(got.map(\.bitPattern) == expected.map(\.bitPattern),
                        "\(kernel) \(window)×\(window)/\(stride) → \(outChannels) on \(height)×\(width), padding \(padding), activation \(activation)")
            }
        }
    }

    @Test func weightsAreSevenBitsWithTheLargestAtTheEdge() {
        var generator = SplitMix64(seed: 7)
        let weights = (0..<(4 * 75)).map { _ in (generator.unitFloat() - 0.5) * 4 } + [Float](repeating: 0, count: 75)
        let (quantized, halfScales) = Int8ConvolutionWeights.quantize(weights, outChannels: 5)
        for (channel, values) in quantized.enumerated() {
            #expect(values.allSatisfy { (Int8ConvolutionWeights.smallestWeight...Int8ConvolutionWeights.largestWeight).contains(Int($0)) })
            if channel < 4 { #expect(values.map { abs(Int($0)) }.max() == Int8ConvolutionWeights.largestWeight) }
        }
        #expect(quantized[4].allSatisfy { $0 == 0 } && halfScales[4] == 0.5)
    }

    @Test func theKernelFollowsTheSetAndTheCPU() {
        let zen4: CPUFeatures = [.avx2, .fma, .f16c, .avx512f, .avx512bw, .avx512dq, .avx512vl, .avx512vnni]
        func best(_ set: KernelSet, _ cpu: CPUFeatures) -> Int8ConvolutionKernel { .best(features: set.features(on: cpu)) }
        #expect(best(.avx512, zen4) == .qconv_u8s7_1x16_avx512vnni)
        #expect(best(.avx512, zen4.subtracting(.avx512vnni)) == .qconv_u8s7_1x16_avx512bw)
        #expect(best(.avx2, zen4) == .qconv_u8s7_1x8_avx2)
        #expect(best(.avx2, []) == .qconv_u8s7_1x8_scalar)
    }

    /// A graph that does not start with a CONV_2D on a 3-channel float input cannot take bytes.
    @Test func refusesOtherFirstLayers() throws {
        let depthwise = TinyConvModel.depthwise(height: 8, width: 8, channels: 3, padding: 0, activation: 0, seed: 1)
        let input = TensorReference(index: 0, name: "input")
        #expect(throws: InferenceError(.int8InputReaders(input, readers: [.depthwiseConv2D]))) {
            try Model(bytes: depthwise.serialized(), firstConvolution: .int8)
        }
        let fourChannels = TinyConvModel.convolution(height: 8, width: 8, inChannels: 4, outChannels: 8, kernel: 3, stride: 1,
                                                     padding: 0, activation: 0, seed: 1)
        #expect(throws: InferenceError(.int8InputShape(input, .float32, shape: [1, 8, 8, 4]))) {
            try Model(bytes: fourChannels.serialized(), firstConvolution: .int8)
        }
        #expect(throws: Never.self) { try Model(bytes: fourChannels.serialized(), firstConvolution: .float32) }
    }

    /// The short-range detector on a random canvas at 384×384 and an odd
    /// size: every kernel gives the same bits, and the outputs stay close to fp32.
    @Test(.enabled(if: Fixtures.modelsAvailable), arguments: Int8ConvolutionKernel.all, [(384, 384), (136, 200)])
    func detectorPlansAgreeAcrossKernels(_ kernel: Int8ConvolutionKernel, _ size: (Int, Int)) throws {
        try requireRunnable(kernel)
        let (height, width) = size
        let base = try Model(contentsOf: Fixtures.model("face_detection_short_range.tflite"))
        let float = try base.resized(inputShape: [1, height, width, 3])
        let int8 = try base.resized(inputShape: [1, height, width, 3], firstConvolution: .int8)
        #expect(int8.firstConvolution == .int8 && int8.stepSummaries.first?.kernel.hasPrefix("qconv_u8s7") == true)
        #expect(int8.stepSummaries.dropFirst().map(\.kernel) == float.stepSummaries.dropFirst().map(\.kernel))
        // A smooth picture (faces are not noise): a gradient with a little noise.
        var generator = SplitMix64(seed: 384)
        let pixels = (0..<(height * width * 3)).map { index -> UInt8 in
            let x = index / 3 % width, y = index / 3 / width
            return UInt8(min(255, (x + y) * 200 / (width + height) + Int(generator.next() >> 59) + (index % 3) * 20))
        }
        let reference = try Self.run(int8.replacingInt8Kernel(with: .qconv_u8s7_1x8_scalar), pixels, output: 0)
        let got = try Self.run(int8.replacingInt8Kernel(with: kernel), pixels, output: 0)
        #expect(got.map(\.bitPattern) == reference.map(\.bitPattern), "\(kernel) at \(width)×\(height)")
        let floats = pixels.map { Float($0) * (2 / 255) - 1 }
        let expected = try Interpreter(model: float).run([floats])[0]
        let worst = zip(reference, expected).map { abs($0 - $1) }.max() ?? 0
        let range = (expected.max() ?? 0) - (expected.min() ?? 0)
        #expect(worst < 0.05 * range, "largest difference from fp32 \(worst) of a range of \(range)")
    }

    /// Runs `model` on `pixels` and returns output `output`.
    static func run(_ model: Model, _ pixels: [UInt8], output: Int = 0) throws -> [Float] {
        let interpreter = try Interpreter(model: model)
        interpreter.withByteInput { input in _ = input.update(from: pixels) }
        interpreter.invoke()
        return interpreter.withOutput(output) { Array($0) }
    }
}
