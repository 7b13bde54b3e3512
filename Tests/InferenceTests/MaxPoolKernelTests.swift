import Inference
import InferenceWide
import Testing
import _TestSupport

/// The max-pool family: the 8-lane kernel against the taps' maximum, and the
/// AVX-512 kernel against the 8-lane one bit for bit, signed zeros and NaNs
/// included (a maximum is exact, so only the order of the comparisons could
/// tell them apart).
@Suite struct MaxPoolKernelTests {
    /// Maps (height, width, channels, padding): even and odd sides (SAME pads
    /// the right column and bottom row of an odd side), one pixel, 8 to 88
    /// channels (BlazeFace's shortcuts: 28, 42, 88).
    static let maps: [(Int, Int, Int, Int8)] = [(6, 8, 28, 1), (7, 9, 28, 0), (5, 11, 42, 0), (4, 6, 88, 1), (3, 5, 16, 0),
                                                (2, 2, 8, 1), (1, 1, 24, 0), (9, 3, 20, 0)]

    /// Inputs in [−2, 2) with every seventh value a signed zero and every
    /// thirteenth a NaN.
    static func input(count: Int, seed: UInt64) -> [Float] {
        var generator = SplitMix64(seed: seed)
        return (0..<count).map { i in
            let value = generator.unitFloat() * 4 - 2
            if i % 13 == 5 { return .nan }
            if i % 7 == 3 { return i % 2 == 0 ? 0 : -0.0 }
            return value
        }
    }

    private func run(_ kernels: KernelSet, _ map: (height: Int, width: Int, channels: Int, padding: Int8), _ input: [Float]) throws -> [Float] {
        let tiny = TinyConvModel.maxPool(height: map.height, width: map.width, channels: map.channels, padding: map.padding)
        let model = try Model(bytes: tiny.serialized(), kernels: kernels)
        #expect(model.stepSummaries.map(\.kernel) == [kernels == .avx512 ? "maxpool2x2s2_1px_avx512" : "maxpool_1px_avx2"])
        return try Interpreter(model: model).run([input])[0]
    }

    @Test(arguments: maps)
    func avx2KernelTakesTheWindowsMaximum(_ map: (Int, Int, Int, Int8)) throws {
        let (height, width, channels, padding) = map
        var generator = SplitMix64(seed: UInt64(height * width * channels))
        let input = (0..<(height * width * channels)).map { _ in generator.unitFloat() * 4 - 2 }
        let got = try run(.avx2, map, input)
        let outHeight = padding == 0 ? (height + 1) / 2 : height / 2, outWidth = padding == 0 ? (width + 1) / 2 : width / 2
        #expect(got.count == outHeight * outWidth * channels)
        for oy in 0..<outHeight {
            for ox in 0..<outWidth {
                for c in 0..<channels {
                    var best = -Float.infinity
                    for y in (2 * oy)..<min(height, 2 * oy + 2) {
                        for x in (2 * ox)..<min(width, 2 * ox + 2) { best = max(best, input[(y * width + x) * channels + c]) }
                    }
                    #expect(got[(oy * outWidth + ox) * channels + c] == best, "\(map): (\(oy), \(ox), \(c))")
                }
            }
        }
    }

    @Test(.avx512, arguments: maps)
    func avx512KernelMatchesTheAVX2KernelBitForBit(_ map: (Int, Int, Int, Int8)) throws {
        let input = Self.input(count: map.0 * map.1 * map.2, seed: UInt64(map.2))
        let wide = try run(.avx512, map, input), narrow = try run(.avx2, map, input)
        #expect(wide.map(\.bitPattern) == narrow.map(\.bitPattern), "\(map)")
    }

    /// `MaxPool2x2s2AVX512.row` alone: every pixel's channels, and nothing
    /// written past the last pixel's last channel.
    @Test(.avx512, arguments: [8, 16, 28, 42, 88])
    func rowStopsAtTheLastChannel(_ channels: Int) {
        let pixels = 5, rowFloats = 2 * pixels * channels
        let input = Self.input(count: 2 * rowFloats + 16, seed: UInt64(channels) + 7)
        var output = [Float](repeating: 99, count: pixels * channels + 16)
        input.withUnsafeBufferPointer { x in
            output.withUnsafeMutableBufferPointer { out in
                MaxPool2x2s2AVX512.row(top: x.baseAddress!, bottom: x.baseAddress! + rowFloats, channels: channels, pixels: pixels,
                                       output: out.baseAddress!)
            }
        }
        func maximum(_ a: Float, _ b: Float) -> Float { a < b ? b : a }
        for p in 0..<pixels {
            for c in 0..<channels {
                let top = maximum(input[2 * p * channels + c], input[(2 * p + 1) * channels + c])
                let bottom = maximum(input[rowFloats + 2 * p * channels + c], input[rowFloats + (2 * p + 1) * channels + c])
                #expect(output[p * channels + c].bitPattern == maximum(top, bottom).bitPattern, "\(channels) channels: (\(p), \(c))")
            }
        }
        #expect(output[(pixels * channels)...].allSatisfy { $0 == 99 }, "\(channels) channels: a store ran past the last channel")
    }
}
