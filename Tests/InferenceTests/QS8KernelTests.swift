import CInt8Convolution
import Foundation
import Inference
import Testing
import _TestSupport

/// The QS8 kernels (`qs8.h`): every kernel of `QS8PointwiseKernel.all` and
/// `QS8DepthwiseKernel.all` (one the CPU lacks is skipped with its reason)
/// against a Swift reference of the contract, byte for byte (float bits
/// for the float-output 1×1) — pixel and width counts that end inside
/// every tile, channel counts that end inside a vector or a group of four,
/// every border of the depthwise window, inputs that saturate both clamps,
/// ties, zero weights — and every `QS8Elementwise` variant against the
/// contract.
@Suite struct QS8KernelTests {
    /// What a case's values are chosen for.
    enum Values: String, CustomStringConvertible {
        /// Random bytes and weights, outputs mostly inside the clamps.
        case random
        /// Multipliers and biases that push outputs past both clamps.
        case saturating
        /// Multiplier ½ and bias 0: every odd sum rounds a tie.
        case ties
        /// A channel (or all but a few taps) of zero weights.
        case zeroWeights

        var description: String { rawValue }
    }

    // MARK: - 1×1

    struct PointwiseCase: CustomStringConvertible, Sendable {
        var pixels: Int, inChannels: Int, outChannels: Int, floats: Bool, values: Values
        var description: String { "\(pixels) px, \(inChannels) → \(outChannels) \(floats ? "floats" : "bytes"), \(values)" }
    }

    static let pointwiseCases: [PointwiseCase] = {
        var cases: [PointwiseCase] = []
        // YuNet-s's shapes, and pixel counts that end inside the tiles (8, 6, 4).
        for (i, o) in [(16, 16), (16, 32), (32, 32), (32, 64), (64, 64), (64, 16)] {
            for (index, pixels) in [1, 7, 13, 33].enumerated() {
                let values: [Values] = [.random, .saturating, .ties, .zeroWeights]
                cases.append(.init(pixels: pixels, inChannels: i, outChannels: o, floats: index % 2 == 1, values: values[index]))
            }
        }
        // Odd output counts (every last-block path: 8, 16, 32 lanes, masks) and input counts that end inside a group.
        for (index, (i, o)) in [(4, 1), (8, 3), (12, 7), (20, 9), (36, 15), (48, 17), (28, 24), (40, 25), (64, 31), (24, 33), (16, 48),
                                (32, 63), (64, 65), (100, 80), (3, 5), (5, 16), (7, 40), (130, 64), (512, 20), (509, 129)].enumerated() {
            let values: [Values] = [.random, .saturating, .ties]
            cases.append(.init(pixels: [5, 6, 9, 17, 2][index % 5], inChannels: i, outChannels: o, floats: index % 3 == 1,
                               values: values[index % 3]))
        }
        return cases
    }()

    @Test(arguments: QS8PointwiseKernel.all, pointwiseCases)
    func everyPointwiseKernelMatchesTheContract(_ kernel: QS8PointwiseKernel, _ shape: PointwiseCase) throws {
        try requireRunnable(kernel)
        let (pixels, inC, outC) = (shape.pixels, shape.inChannels, shape.outChannels)
        var generator = SplitMix64(seed: UInt64(pixels * 100_000 + inC * 300 + outC))
        let input = (0..<(pixels * inC)).map { _ in UInt8.random(in: 0...255, using: &generator) }
        // Whole weights with ±127 in every channel that is not all zero, so
        // `Int8PointwiseWeights.pack` keeps them as they are (scale 1).
        var weights = (0..<(outC * inC)).map { _ in Float(Int.random(in: -127...127, using: &generator)) }
        for o in 0..<outC { weights[o * inC + Int.random(in: 0..<inC, using: &generator)] = Bool.random(using: &generator) ? 127 : -127 }
        if shape.values == .zeroWeights || outC > 2 {
            for i in 0..<inC { weights[(outC - 1) * inC + i] = 0 }
        }
        let typical = Float(255 * 127) * Float(inC).squareRoot() / 3
        let padded = (outC + 15) / 16 * 16
        let multipliers: [Float] = (0..<padded).map { o in
            guard o < outC else { return 0 }
            switch shape.values {
            case .ties: return 0.5
            case .saturating: return generator.unitFloat() * 2000 / typical
            default: return generator.unitFloat() * 200 / typical
            }
        }
        let bias: [Float] = (0..<padded).map { o in
            guard o < outC else { return 0 }
            switch shape.values {
            case .ties: return 0
            case .saturating: return (generator.unitFloat() - 0.5) * 600
            default: return (generator.unitFloat() - 0.5) * 100
            }
        }
        let layout = Int8PointwiseWeights(inChannels: inC, outChannels: outC)
        let table = layout.pack(weights)
        let packedBytes = layout.zeroSumsOffset * 4

        let expected = Self.pointwise(input: input, pixels: pixels, inC: inC, outC: outC, weights: weights, multipliers: multipliers, bias: bias)
        var bytes = [UInt8](repeating: 0xA5, count: shape.floats ? 0 : pixels * outC)
        var floats = [Float](repeating: .nan, count: shape.floats ? pixels * outC : 0)
        table.withUnsafeBytes { t in
            input.withUnsafeBufferPointer { x in
                multipliers.withUnsafeBufferPointer { m in
                    bias.withUnsafeBufferPointer { b in
                        bytes.withUnsafeMutableBufferPointer { outBytes in
                            floats.withUnsafeMutableBufferPointer { outFloats in
                                var parameters = facepipe_qs8_pw_params(
                                    input: x.baseAddress, pixels: Int32(pixels), in_channels: Int32(inC), out_channels: Int32(outC),
                                    weights: t.baseAddress!.assumingMemoryBound(to: Int8.self), multipliers: m.baseAddress, bias: b.baseAddress,
                                    output_bytes: shape.floats ? nil : outBytes.baseAddress, output_floats: shape.floats ? outFloats.baseAddress : nil)
                                withUnsafePointer(to: &parameters) { kernel.run($0) }
                            }
                        }
                    }
                }
            }
        }
        #expect(packedBytes >= outC * ((inC + 3) / 4) * 4)
        if shape.floats {
            #expect(floats.map(\.bitPattern) == expected.map(\.bitPattern), "\(kernel): \(shape)")
        } else {
            #expect(bytes == expected.map(Self.signedByte), "\(kernel): \(shape)")
            if shape.values == .saturating {
                #expect(bytes.contains(1) && bytes.contains(255), "the case saturates both clamps")
            }
        }
    }

    // MARK: - 3×3 depthwise

    struct DepthwiseCase: CustomStringConvertible, Sendable {
        var inHeight: Int, outHeight: Int, width: Int, channels: Int, padTop: Int, values: Values
        var description: String { "\(inHeight) → \(outHeight) rows (pad_top \(padTop)) × \(width) px × \(channels) ch, \(values)" }
    }

    static let depthwiseCases: [DepthwiseCase] = {
        var cases: [DepthwiseCase] = []
        let values: [Values] = [.random, .saturating, .ties, .zeroWeights]
        var index = 0
        // Every width border (1, 2, 3 px; ends inside 4- and 8-pixel groups; past a strip), YuNet-s's channel counts.
        for width in [1, 2, 3, 5, 17, 64, 67, 131, 300] {
            for channels in [16, 32, 64] {
                // Top padding, none, rows past the bottom, a lone output row, more rows than a block.
                for (inHeight, outHeight, padTop) in [(6, 6, 1), (6, 4, 0), (3, 5, 1), (1, 1, 1), (2, 3, 0), (12, 11, 1), (4, 1, 2)] {
                    index += 1
                    if width > 64, index % 2 == 0 { continue }
                    cases.append(.init(inHeight: inHeight, outHeight: outHeight, width: width, channels: channels, padTop: padTop,
                                       values: values[index % 4]))
                }
            }
        }
        // Channel counts that are not 16, 32 or 64 (the AVX-512 kernel runs the AVX2 one on those it does not take).
        for channels in [4, 8, 12, 20, 48, 80, 528] {
            for (inHeight, outHeight, padTop, width) in [(5, 5, 1, 9), (2, 4, 1, 3), (7, 5, -1, 18)] {
                index += 1
                cases.append(.init(inHeight: inHeight, outHeight: outHeight, width: width, channels: channels, padTop: padTop,
                                   values: values[index % 4]))
            }
        }
        return cases
    }()

    @Test(arguments: QS8DepthwiseKernel.all, depthwiseCases)
    func everyDepthwiseKernelMatchesTheContract(_ kernel: QS8DepthwiseKernel, _ shape: DepthwiseCase) throws {
        try requireRunnable(kernel)
        let (height, width, channels) = (shape.inHeight, shape.width, shape.channels)
        var generator = SplitMix64(seed: UInt64(height * 1_000_000 + width * 1000 + channels + shape.padTop))
        let input = (0..<(height * width * channels)).map { index in
            shape.values == .saturating ? UInt8(index % 3 == 0 ? 0 : 255) : UInt8.random(in: 0...255, using: &generator)
        }
        var taps = (0..<(9 * channels)).map { _ in Int8.random(in: -127...127, using: &generator) }
        if shape.values == .saturating { taps = taps.indices.map { $0 % 2 == 0 ? 127 : -127 } }
        if shape.values == .zeroWeights {
            for tap in 0..<9 {
                for c in 0..<channels where c % 3 != 0 || tap != 4 { taps[tap * channels + c] = 0 }
            }
        }
        let multipliers: [Float] = (0..<channels).map { _ in
            switch shape.values {
            case .ties: 0.5
            case .saturating: generator.unitFloat() * 0.05
            default: generator.unitFloat() * 255 / 40_000
            }
        }
        let bias: [Float] = (0..<channels).map { _ in shape.values == .ties ? 0 : (generator.unitFloat() - 0.3) * 300 }

        let expected = Self.depthwise(input: input, shape: shape, taps: taps, multipliers: multipliers, bias: bias)
        var output = [UInt8](repeating: 0xA5, count: shape.outHeight * width * channels)
        input.withUnsafeBufferPointer { x in
            taps.withUnsafeBufferPointer { k in
                multipliers.withUnsafeBufferPointer { m in
                    bias.withUnsafeBufferPointer { b in
                        output.withUnsafeMutableBufferPointer { out in
                            var parameters = facepipe_qs8_dw_params(
                                input: x.baseAddress, in_height: Int32(height), out_height: Int32(shape.outHeight), width: Int32(width),
                                channels: Int32(channels), pad_top: Int32(shape.padTop), taps: k.baseAddress, multipliers: m.baseAddress,
                                bias: b.baseAddress, output: out.baseAddress)
                            withUnsafePointer(to: &parameters) { kernel.run($0) }
                        }
                    }
                }
            }
        }
        if let first = output.indices.first(where: { output[$0] != expected[$0] }) {
            let (pixel, channel) = first.quotientAndRemainder(dividingBy: channels)
            let (row, column) = pixel.quotientAndRemainder(dividingBy: width)
            Issue.record("\(kernel): \(shape): first difference at row \(row), column \(column), channel \(channel): \(output[first]), expected \(expected[first])")
        }
        if shape.values == .saturating, width > 2, shape.inHeight > 1 {
            #expect(output.contains(0) && output.contains(255), "the case saturates both clamps")
        }
    }

    @Test func theKernelFollowsTheCPUAndTheChannels() {
        let zen4: CPUFeatures = [.avx2, .fma, .f16c, .avx512f, .avx512bw, .avx512dq, .avx512vl, .avx512vbmi, .avx512vnni]
        let zen3: CPUFeatures = [.avx2, .fma, .f16c]
        #expect(QS8PointwiseKernel.best(features: zen4) == .qs8_pw_4x64_avx512vnni)
        #expect(QS8PointwiseKernel.best(features: zen3) == .qs8_pw_6x8_avx2)
        #expect(QS8PointwiseKernel.best(features: []) == .qs8_pw_1x1_scalar)
        #expect(QS8DepthwiseKernel.best(for: 16, features: zen4) == .qs8_dw3x3_4x4_avx512vbmi)
        #expect(QS8DepthwiseKernel.best(for: 64, features: zen4) == .qs8_dw3x3_4x4_avx512vbmi)
        #expect(QS8DepthwiseKernel.best(for: 64, features: zen4.subtracting(.avx512vbmi)) == .qs8_dw3x3_8px_avx2)
        #expect(QS8DepthwiseKernel.best(for: 20, features: zen4) == .qs8_dw3x3_8px_avx2)
        #expect(QS8DepthwiseKernel.best(for: 528, features: zen4) == .qs8_dw3x3_8px_avx2)
        #expect(QS8DepthwiseKernel.best(for: 32, features: zen3) == .qs8_dw3x3_8px_avx2)
        #expect(QS8DepthwiseKernel.best(for: 6, features: zen3) == .qs8_dw3x3_scalar)
    }

    // MARK: - Byte maps

    /// Skips a variant this CPU cannot run (recorded, not passed).
    private func requireVariant(_ variant: QS8Elementwise.Variant) throws {
        let lacking = variant.requiredFeatures.subtracting(.current)
        if !lacking.isEmpty { try Test.cancel("QS8Elementwise.\(variant) needs \(lacking), which this CPU lacks") }
    }

    @Test(arguments: QS8Elementwise.Variant.allCases)
    func everyMaxPoolMatchesTheContract(_ variant: QS8Elementwise.Variant) throws {
        try requireVariant(variant)
        var generator = SplitMix64(seed: 7)
        for channels in [1, 3, 4, 8, 12, 16, 32, 48, 64, 96, 128, 132] {
            for outWidth in [1, 2, 3, 4, 5, 9, 17] {
                for (outHeight, inWidth) in [(1, 2 * outWidth), (3, 2 * outWidth + 1)] {
                    let input = (0..<(2 * outHeight * inWidth * channels)).map { _ in UInt8.random(in: 0...255, using: &generator) }
                    var expected = [UInt8](repeating: 0, count: outHeight * outWidth * channels)
                    for r in 0..<outHeight {
                        for x in 0..<outWidth {
                            for c in 0..<channels {
                                func at(_ row: Int, _ column: Int) -> UInt8 { input[(row * inWidth + column) * channels + c] }
                                expected[(r * outWidth + x) * channels + c] =
                                    max(at(2 * r, 2 * x), at(2 * r, 2 * x + 1), at(2 * r + 1, 2 * x), at(2 * r + 1, 2 * x + 1))
                            }
                        }
                    }
                    var output = [UInt8](repeating: 0xA5, count: expected.count)
                    input.withUnsafeBufferPointer { x in
                        output.withUnsafeMutableBufferPointer { out in
                            QS8Elementwise.maxPool2x2(x.baseAddress!, inWidth: inWidth, outHeight: outHeight, outWidth: outWidth,
                                                      channels: channels, output: out.baseAddress!, variant: variant)
                        }
                    }
                    #expect(output == expected, "\(variant): \(outHeight)×\(outWidth) of \(inWidth) px, \(channels) ch")
                }
            }
        }
    }

    @Test(arguments: QS8Elementwise.Variant.allCases)
    func everyAddAndQuantizeMatchesTheContract(_ variant: QS8Elementwise.Variant) throws {
        try requireVariant(variant)
        var generator = SplitMix64(seed: 11)
        // Counts that end inside every vector (8, 16, 64 bytes), and a map's worth.
        for count in Array(0...70) + [127, 128, 129, 1056 * 16 + 5] {
            let a = (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let b = (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
            // Non-finite, huge, negative, exact halves and ordinary values.
            let specials: [Float] = [.nan, .infinity, -.infinity, 3e38, -3e38, -0.0, 0.5, 1.5, 254.5, 255.5, 256, -0.5]
            let x = (0..<count).map { index in
                index % 5 == 0 ? specials[(index / 5) % specials.count] : (generator.unitFloat() - 0.1) * 330
            }
            for (ma, mb) in [(Float(0.5), Float(0.5)), (0.37, 1.91), (3, 2), (0.013, 0.021)] {
                let expected = zip(a, b).map { Self.grid((Float($1) * mb).addingProduct(Float($0), ma), lower: 0, upper: 255) }
                var output = [UInt8](repeating: 0xA5, count: count)
                a.withUnsafeBufferPointer { pa in
                    b.withUnsafeBufferPointer { pb in
                        output.withUnsafeMutableBufferPointer { out in
                            QS8Elementwise.add(pa.baseAddress!, pb.baseAddress!, lhsScale: ma, rhsScale: mb, output: out.baseAddress!,
                                               count: count, variant: variant)
                        }
                    }
                }
                #expect(output == expected.map { UInt8($0) }, "\(variant): add of \(count) bytes × (\(ma), \(mb))")

                let inverse = ma == 0.5 ? 1 : ma * 3
                let quantized = x.map { Self.grid($0 * inverse, lower: 0, upper: 255) }
                x.withUnsafeBufferPointer { px in
                    output.withUnsafeMutableBufferPointer { out in
                        QS8Elementwise.quantize(px.baseAddress!, inverseStep: inverse, output: out.baseAddress!, count: count, variant: variant)
                    }
                }
                #expect(output == quantized.map { UInt8($0) }, "\(variant): quantize of \(count) floats × \(inverse)")
            }
        }
    }

    // MARK: - The contract in Swift

    /// `qs8.h`'s clamp then round: `v > lower ? v : lower`, `v < upper ? v : upper` (NaN goes to `lower`), ties to even.
    static func grid(_ v: Float, lower: Float, upper: Float) -> Float {
        var v = v > lower ? v : lower
        v = v < upper ? v : upper
        return v.rounded(.toNearestOrEven)
    }

    /// A 1×1 output on the signed grid: −127…127, stored + 128.
    static func signedByte(_ v: Float) -> UInt8 { UInt8(Int(grid(v, lower: -127, upper: 127)) + 128) }

    /// The 1×1 convolution's `fmaf((float)A, multiplier, bias)`, per pixel and output channel.
    static func pointwise(input: [UInt8], pixels: Int, inC: Int, outC: Int, weights: [Float], multipliers: [Float], bias: [Float]) -> [Float] {
        var output: [Float] = []
        output.reserveCapacity(pixels * outC)
        for p in 0..<pixels {
            for o in 0..<outC {
                var a: Int32 = 0
                for i in 0..<inC { a += Int32(input[p * inC + i]) * Int32(weights[o * inC + i]) }
                output.append(bias[o].addingProduct(Float(a), multipliers[o]))
            }
        }
        return output
    }

    /// The 3×3 depthwise convolution with ReLU: padding rows and columns add nothing.
    static func depthwise(input: [UInt8], shape: DepthwiseCase, taps: [Int8], multipliers: [Float], bias: [Float]) -> [UInt8] {
        let (width, channels) = (shape.width, shape.channels)
        var output = [UInt8](repeating: 0, count: shape.outHeight * width * channels)
        for r in 0..<shape.outHeight {
            for x in 0..<width {
                for c in 0..<channels {
                    var a: Int32 = 0
                    for ky in 0..<3 {
                        let row = r - shape.padTop + ky
                        guard row >= 0, row < shape.inHeight else { continue }
                        for kx in 0..<3 {
                            let column = x - 1 + kx
                            guard column >= 0, column < width else { continue }
                            a += (Int32(input[(row * width + column) * channels + c]) - 128) * Int32(taps[(ky * 3 + kx) * channels + c])
                        }
                    }
                    output[(r * width + x) * channels + c] = UInt8(grid(bias[c].addingProduct(Float(a), multipliers[c]), lower: 0, upper: 255))
                }
            }
        }
        return output
    }
}
