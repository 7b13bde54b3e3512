import Inference
import Testing
import _TestSupport

/// Whole 1×1 CONV_2D steps on the 16-lane plan against scalar sums taken in
/// the kernels' order (zero, then one fused multiply-add per input channel,
/// then the bias): bit for bit for every tile shape — pairs of 16-channel
/// blocks, an odd 16-channel block, a last block of at most 8 channels in
/// 8-lane accumulators beside 16 or alone, and leftover pixels.
@Suite struct WidePointwiseTests {
    @Test(.enabled(if: KernelWidth.lanes16.isAvailable, "this CPU has no AVX-512"),
          arguments: [8, 16, 24, 28, 36, 48, 56, 72, 88, 96])
    func stepMatchesScalarSumsBitForBit(_ outChannels: Int) throws {
        let (height, width, inChannels) = (5, 7, 24)
        for activation: Int8 in [0, 1] {
            let tiny = TinyConvModel.convolution(height: height, width: width, inChannels: inChannels, outChannels: outChannels,
                                                 kernel: 1, stride: 1, padding: 1, activation: activation, seed: UInt64(outChannels))
            let wide = try Model(bytes: tiny.serialized(), kernels: .lanes16)
            var generator = SplitMix64(seed: UInt64(outChannels + 1))
            let input = (0..<(height * width * inChannels)).map { _ in generator.unitFloat() * 2 - 1 }
            let got = try Interpreter(model: wide).run([input])[0]
            var mismatches = 0
            for pixel in 0..<(height * width) {
                for channel in 0..<outChannels {
                    var sum: Float = 0
                    for i in 0..<inChannels {
                        sum = sum.addingProduct(input[pixel * inChannels + i], tiny.weights[channel * inChannels + i])
                    }
                    let value = sum + tiny.bias[channel]
                    let expected = activation == 1 && value < 0 ? 0 : value
                    if got[pixel * outChannels + channel].bitPattern != expected.bitPattern { mismatches += 1 }
                }
            }
            #expect(mismatches == 0, "\(outChannels) channels, activation \(activation): \(mismatches) outputs differ")
        }
    }
}
