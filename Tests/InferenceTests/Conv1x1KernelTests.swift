import Inference
import Testing
import _TestSupport

/// The conv1x1 family (`conv1x1_6x16_avx2`, `conv1x1_8x32_avx512`): whole
/// 1×1 CONV_2D steps against the scalar reference (zero, one fused
/// multiply-add per input channel, then the bias), bit for bit, for every
/// tile shape — pairs of blocks, an odd block, a last block of at most 8
/// channels, a single partial block, and leftover pixels.
@Suite struct Conv1x1KernelTests {
    static let outChannels = [2, 6, 8, 16, 24, 28, 36, 48, 56, 72, 88, 96]

    @Test(arguments: outChannels)
    func conv1x1_6x16_avx2(_ outChannels: Int) throws {
        try check(.avx2, kernel: "conv1x1_6x16_avx2", outChannels: outChannels)
    }

    /// Up to 8 output channels (score heads) the AVX-512 set plans the 8-lane tiles.
    @Test(.avx512, arguments: outChannels)
    func conv1x1_8x32_avx512(_ outChannels: Int) throws {
        try check(.avx512, kernel: outChannels > 8 ? "conv1x1_8x32_avx512" : "conv1x1_6x16_avx2", outChannels: outChannels)
    }

    private func check(_ kernels: KernelSet, kernel: String, outChannels: Int) throws {
        let (height, width, inChannels) = (5, 7, 24)
        for activation: Int8 in [0, 1, 3] {
            let tiny = TinyConvModel.convolution(height: height, width: width, inChannels: inChannels, outChannels: outChannels,
                                                 kernel: 1, stride: 1, padding: 1, activation: activation, seed: UInt64(outChannels))
            let model = try Model(bytes: tiny.serialized(), kernels: kernels)
            #expect(model.stepSummaries.map(\.kernel) == [kernel])
            var generator = SplitMix64(seed: UInt64(outChannels + 1))
            let input = (0..<(height * width * inChannels)).map { _ in generator.unitFloat() * 8 - 4 }
            let got = try Interpreter(model: model).run([input])[0]
            let shape = WindowReference.Shape(height: height, width: width, kernel: 1, stride: 1, padding: 1)
            let expected = WindowReference.convolution(input, shape, inChannels: inChannels, weights: tiny.weights, bias: tiny.bias,
                                                       activation: activation)
            #expect(got.map(\.bitPattern) == expected.map(\.bitPattern), "\(outChannels) channels, activation \(activation)")
        }
    }
}
