import CInt8Convolution
import Foundation
import Inference
import Testing
import _TestSupport

/// The int8 block projections (`PointwiseConvolution.int8`,
/// `Int8PointwiseKernel.all`): every kernel (one the CPU lacks is skipped
/// with its reason) against a Swift
/// reference of `int8_pointwise.h`'s contract bit for bit — pixel counts
/// that end inside a tile, channel counts that end inside a vector or a
/// group of four, narrow residuals, every activation, zero pixels — and the
/// real detector planned with int8 projections: the same bits from every
/// kernel, close to fp32.
@Suite struct Int8PointwiseTests {
    /// An activation of the contract, as the C enum and a Swift function.
    enum Kind: CaseIterable {
        case none, relu, relu6, prelu

        var c: Int32 {
            switch self {
            case .none: Int32(FACEPIPE_QPW_NONE.rawValue)
            case .relu: Int32(FACEPIPE_QPW_RELU.rawValue)
            case .relu6: Int32(FACEPIPE_QPW_RELU6.rawValue)
            case .prelu: Int32(FACEPIPE_QPW_PRELU.rawValue)
            }
        }

        func apply(_ v: Float, slope: Float) -> Float {
            switch self {
            case .none: v
            case .relu: v > 0 ? v : 0
            case .relu6: min6(v > 0 ? v : 0)
            case .prelu: v < 0 ? v * slope : v
            }
        }

        private func min6(_ v: Float) -> Float { v < 6 ? v : 6 }
    }

    /// (pixels, in channels, out channels, residual channels (0: none), first, second).
    static let cases: [(Int, Int, Int, Int, Kind, Kind)] = [
        (1, 3, 2, 0, .none, .none), (7, 24, 24, 24, .none, .relu), (13, 24, 28, 24, .none, .relu),
        (17, 42, 48, 42, .none, .relu), (9, 88, 96, 88, .none, .relu), (8, 96, 96, 96, .prelu, .relu6),
        (21, 28, 88, 0, .relu, .prelu), (5, 40, 17, 0, .relu6, .none), (11, 36, 24, 20, .prelu, .prelu),
        (3, Int8PointwiseWeights.largestInputChannels, 20, 0, .none, .relu),
        // Tiles quantized as flat vectors (a multiple of 4 channels from 16 to 128): vectors within one pixel, across two, the largest.
        (40, 16, 16, 16, .none, .relu), (61, 20, 24, 0, .relu, .none), (33, 128, 16, 0, .none, .none), (19, 132, 8, 0, .none, .relu),
        // YuNet-s's shapes: 16, 32 or 64 channels quantized as whole vectors, no activation (its own specialisation), with and without a residual.
        (23, 16, 32, 0, .none, .none), (29, 32, 32, 0, .none, .none), (37, 64, 64, 0, .none, .none), (15, 32, 32, 32, .none, .none),
    ]

    @Test(arguments: Int8PointwiseKernel.all, cases)
    func everyKernelMatchesTheContractBitForBit(_ kernel: Int8PointwiseKernel, _ shape: (Int, Int, Int, Int, Kind, Kind)) throws {
        try requireRunnable(kernel)
        let (pixels, inC, outC, residualC, first, second) = shape
        var generator = SplitMix64(seed: UInt64(pixels * 1000 + inC * 10 + outC))
        func value() -> Float { (generator.unitFloat() - 0.5) * 8 }
        // Pixel 0 is all zeros (scale 0); pixel 1 has one huge channel; the rest are random.
        var input = (0..<(pixels * inC)).map { _ in value() }
        for c in 0..<inC { input[c] = 0 }
        if pixels > 1 { input[inC + inC / 2] = 900 }
        var weights = (0..<(outC * inC)).map { _ in value() / 4 }
        for i in 0..<inC { weights[i] = 0 }  // a channel of zero weights
        let bias = (0..<roundUp16(outC)).map { $0 < outC ? value() : 0 }
        let slopes = (0..<roundUp16(outC)).map { $0 < outC ? generator.unitFloat() : 0 }
        let residual = residualC > 0 ? (0..<(pixels * residualC)).map { _ in value() } : []
        let layout = Int8PointwiseWeights(inChannels: inC, outChannels: outC)
        let table = layout.pack(weights) + [Float](repeating: 0, count: 16)

        let expected = Self.reference(input: input, pixels: pixels, inC: inC, outC: outC, weights: weights, bias: bias,
                                      residual: residual, residualC: residualC, first: first, second: second, slopes: slopes)
        var output = [Float](repeating: .nan, count: pixels * outC)
        table.withUnsafeBufferPointer { t in
            input.withUnsafeBufferPointer { x in
                bias.withUnsafeBufferPointer { b in
                    slopes.withUnsafeBufferPointer { s in
                        residual.withUnsafeBufferPointer { r in
                            output.withUnsafeMutableBufferPointer { out in
                                var parameters = facepipe_qpw_params(
                                    input: x.baseAddress, pixels: Int32(pixels), in_channels: Int32(inC), out_channels: Int32(outC),
                                    weights: UnsafeRawPointer(t.baseAddress!).assumingMemoryBound(to: Int8.self),
                                    zero_sums: UnsafeRawPointer(t.baseAddress! + layout.zeroSumsOffset).assumingMemoryBound(to: Int32.self),
                                    scales: t.baseAddress! + layout.scalesOffset, bias: b.baseAddress,
                                    residual: residualC > 0 ? r.baseAddress : nil, residual_channels: Int32(residualC > 0 ? residualC : outC),
                                    first: first.c, second: second.c, first_slopes: s.baseAddress, second_slopes: s.baseAddress,
                                    output: out.baseAddress)
                                withUnsafePointer(to: &parameters) { kernel.run($0) }
                            }
                        }
                    }
                }
            }
        }
        #expect(output.map(\.bitPattern) == expected.map(\.bitPattern),
                "\(kernel): \(pixels) pixels, \(inC) → \(outC), residual \(residualC), \(first)/\(second)")
        // And close to the fp32 layer on the ordinary pixels (pixel 1's outlier
        // takes its other channels' precision, by design of a per-pixel scale).
        let exact = Self.float32(input: input, pixels: pixels, inC: inC, outC: outC, weights: weights, bias: bias,
                                 residual: residual, residualC: residualC, first: first, second: second, slopes: slopes)
        let ordinary = (0..<pixels).filter { $0 != 1 }.flatMap { (($0 * outC)..<(($0 + 1) * outC)) }
        let worst = ordinary.map { abs(expected[$0] - exact[$0]) }.max() ?? 0
        let largest = ordinary.map { abs(exact[$0]) }.max() ?? 0
        #expect(worst <= 0.05 * largest + 1e-6, "largest difference \(worst) of outputs up to \(largest)")
    }

    @Test func theKernelFollowsTheSetAndTheCPU() {
        let zen4: CPUFeatures = [.avx2, .fma, .f16c, .avx512f, .avx512bw, .avx512dq, .avx512vl, .avx512vnni]
        func best(_ set: KernelSet, _ cpu: CPUFeatures) -> Int8PointwiseKernel { .best(features: set.features(on: cpu)) }
        #expect(best(.avx512, zen4) == .qpw_u8s8_8x32_avx512vnni)
        #expect(best(.avx512, zen4.subtracting(.avx512vnni)) == .qpw_u8s8_6x8_avx2)
        #expect(best(.avx2, zen4) == .qpw_u8s8_6x8_avx2)
        #expect(best(.avx2, []) == .qpw_u8s8_1x1_scalar)
    }

    /// The short-range detector: the 16 block projections run int8, the
    /// heads and every other layer as before; every kernel gives the same
    /// bits on a tiled photo, and the outputs stay close to fp32.
    @Test(.enabled(if: Fixtures.modelsAvailable), arguments: Int8PointwiseKernel.all, [(384, 384), (136, 200)])
    func detectorPlansAgreeAcrossKernels(_ kernel: Int8PointwiseKernel, _ size: (Int, Int)) throws {
        try requireRunnable(kernel)
        let (height, width) = size
        let base = try Model(contentsOf: Fixtures.model("face_detection_short_range.tflite"))
        let float = try base.resized(inputShape: [1, height, width, 3])
        let int8 = try base.resized(inputShape: [1, height, width, 3], firstConvolution: .float32, pointwise: .int8)
        // PADs of residuals fold into the projections (on AVX2 they stay in the fp32 plan).
        let floatSteps = float.stepSummaries.filter { $0.kind != "PAD" }, int8Steps = int8.stepSummaries.filter { $0.kind != "PAD" }
        #expect(int8Steps.map(\.kind) == floatSteps.map(\.kind))
        #expect(int8Steps.filter { $0.kernel.hasPrefix("qpw_") }.count == 16)
        for (index, step) in int8Steps.enumerated() where index < floatSteps.count {
            if step.kernel.hasPrefix("qpw_") {
                // Right after its depthwise convolution, or after the shortcut's MAX_POOL of a stride-2 block.
                #expect(step.kind == "CONV_2D 1x1" && floatSteps[..<index].suffix(2).contains { $0.kind.hasPrefix("DEPTHWISE_CONV_2D") })
            } else {
                #expect(step.kernel == floatSteps[index].kernel, "step \(index) \(step.kind)")
            }
        }
        // A real face, tiled (the astronaut photo at 128 px).
        let pixels = try RowStreamingTests.photo(height: height, width: width)
        let reference = try Interpreter(model: int8.replacingInt8PointwiseKernel(with: .qpw_u8s8_1x1_scalar)).run([pixels])
        let got = try Interpreter(model: int8.replacingInt8PointwiseKernel(with: kernel)).run([pixels])
        #expect(got.map { $0.map(\.bitPattern) } == reference.map { $0.map(\.bitPattern) }, "\(kernel) at \(width)×\(height)")
        // Close to fp32 where it matters: face probabilities (logits move by
        // up to about 1), the anchors that find a face, and the boxes overall.
        let expected = try Interpreter(model: float).run([pixels])
        func sigmoid(_ x: Float) -> Float { 1 / (1 + exp(-x)) }
        let scores = zip(reference[1], expected[1]).map { abs(sigmoid($0) - sigmoid($1)) }.max() ?? 0
        // Measured: 0.20 at most; the anchors above 0.5 are nearly the same ones.
        #expect(scores < 0.25, "largest face-probability difference from fp32 \(scores)")
        let above = (float: expected[1].filter { $0 > 0 }.count, int8: reference[1].filter { $0 > 0 }.count,
                     both: zip(reference[1], expected[1]).filter { $0 > 0 && $1 > 0 }.count)
        #expect(above.float > 0 && Double(above.both) >= 0.9 * Double(max(above.float, above.int8)), "anchors above 0.5: \(above)")
        let boxes = zip(reference[0], expected[0]).map { abs($0 - $1) }.sorted()
        let range = (expected[0].max() ?? 0) - (expected[0].min() ?? 0)
        #expect(boxes[boxes.count / 2] < 0.02 * range, "median box difference from fp32 \(boxes[boxes.count / 2]) of a range of \(range)")
    }

    private func roundUp16(_ n: Int) -> Int { (n + 15) / 16 * 16 }

    /// `int8_pointwise.h`'s contract, one value at a time.
    static func reference(input: [Float], pixels: Int, inC: Int, outC: Int, weights: [Float], bias: [Float], residual: [Float],
                          residualC: Int, first: Kind, second: Kind, slopes: [Float]) -> [Float] {
        let (k, t) = Int8ConvolutionWeights.perChannel(weights, outChannels: outC, levels: -127...127)
        var output: [Float] = []
        for p in 0..<pixels {
            let x = input[(p * inC)..<((p + 1) * inC)]
            let m = x.reduce(Float(0)) { max($0, abs($1)) }
            let inverse: Float = m > 0 ? 127 / m : 0
            let s: Float = m > 0 ? m / 127 : 0
            let q = x.map { Int32(min(max(($0 * inverse).rounded(.toNearestOrEven), -127), 127)) }
            for o in 0..<outC {
                var a: Int32 = 0
                for i in 0..<inC { a += q[i] * Int32(k[o][i]) }  // Σ (q + 128)·k − 128·Σk
                var v = bias[o].addingProduct(Float(a), t[o] * s)
                v = first.apply(v, slope: slopes[o])
                if residualC > 0 { v = v + (o < residualC ? residual[p * residualC + o] : 0) }
                output.append(second.apply(v, slope: slopes[o]))
            }
        }
        return output
    }

    /// The same layer in fp32.
    static func float32(input: [Float], pixels: Int, inC: Int, outC: Int, weights: [Float], bias: [Float], residual: [Float],
                        residualC: Int, first: Kind, second: Kind, slopes: [Float]) -> [Float] {
        var output: [Float] = []
        for p in 0..<pixels {
            for o in 0..<outC {
                var v = bias[o]
                for i in 0..<inC { v += input[p * inC + i] * weights[o * inC + i] }
                v = first.apply(v, slope: slopes[o])
                if residualC > 0 { v += o < residualC ? residual[p * residualC + o] : 0 }
                output.append(second.apply(v, slope: slopes[o]))
            }
        }
        return output
    }
}
