import Inference
import InferenceWide
import Testing
import _TestSupport

/// The max-pool family (`PoolKernel.all`): every kernel against the
/// windows' maximum taken in the kernels' order, bit for bit, signed zeros
/// and NaNs included (a maximum is exact, so only the order of the
/// comparisons could tell kernels apart).
@Suite struct MaxPoolKernelTests {
    /// Maps (height, width, channels, padding): even and odd sides (SAME pads
    /// the right column and bottom row of an odd side), one pixel, 8 to 88
    /// channels (BlazeFace's shortcuts: 28, 42, 88).
    static let maps: [(Int, Int, Int, Int8)] = [(6, 8, 28, 1), (7, 9, 28, 0), (5, 11, 42, 0), (4, 6, 88, 1), (3, 5, 16, 0),
                                                (2, 2, 8, 1), (1, 1, 24, 0), (9, 3, 20, 0)]
    /// The maps' pooling: 2×2, stride 2.
    static let shape = MicroKernelShape(kernelHeight: 2, kernelWidth: 2, strideHeight: 2, strideWidth: 2, outChannels: 0,
                                        isPointwise: false, fusedAdd: false)

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

    /// The kernels' comparison (`Kernels.maximum`): `b` where `a < b`, so a NaN in `b` never wins.
    static func maximum(_ a: Float, _ b: Float) -> Float { a < b ? b : a }

    /// The 2×2, stride-2 pooling of `input` in the kernels' order: a whole
    /// window as the maximum of its rows' maxima, a window cut by padding
    /// folded from −∞ over its taps in row order.
    static func reference(_ input: [Float], _ map: (height: Int, width: Int, channels: Int, padding: Int8)) -> [Float] {
        let outHeight = map.padding == 0 ? (map.height + 1) / 2 : map.height / 2
        let outWidth = map.padding == 0 ? (map.width + 1) / 2 : map.width / 2
        func at(_ y: Int, _ x: Int, _ c: Int) -> Float { input[(y * map.width + x) * map.channels + c] }
        var output = [Float]()
        for oy in 0..<outHeight {
            for ox in 0..<outWidth {
                for c in 0..<map.channels {
                    let (y, x) = (2 * oy, 2 * ox)
                    if y + 1 < map.height && x + 1 < map.width {
                        output.append(maximum(maximum(at(y, x, c), at(y, x + 1, c)), maximum(at(y + 1, x, c), at(y + 1, x + 1, c))))
                        continue
                    }
                    var best = -Float.infinity
                    for ty in y..<min(map.height, y + 2) {
                        for tx in x..<min(map.width, x + 2) { best = maximum(best, at(ty, tx, c)) }
                    }
                    output.append(best)
                }
            }
        }
        return output
    }

    /// Each kernel of the list on every map, in every kernel set this
    /// machine has that plans it; a kernel no set plans fails.
    @Test(arguments: PoolKernel.all)
    func everyKernelTakesTheWindowsMaximumBitForBit(_ kernel: PoolKernel) throws {
        try requireRunnable(kernel)
        var checked = 0
        for set in KernelSet.allCases where set.isAvailable && PoolKernel.best(for: Self.shape, features: set.features(on: .current)) == kernel {
            for map in Self.maps {
                let input = Self.input(count: map.0 * map.1 * map.2, seed: UInt64(map.2))
                let tiny = TinyConvModel.maxPool(height: map.0, width: map.1, channels: map.2, padding: map.3)
                let model = try Model(bytes: tiny.serialized(), kernels: set)
                #expect(model.stepSummaries.map(\.kernel) == [kernel.rawValue], "\(map) in the \(set) set")
                let got = try Interpreter(model: model).run([input])[0]
                let expected = Self.reference(input, map)
                #expect(got.map(\.bitPattern) == expected.map(\.bitPattern), "\(kernel) in the \(set) set on \(map)")
            }
            checked += 1
        }
        #expect(checked > 0, "no kernel set plans \(kernel) for a 2×2, stride-2 pool: add a map it takes")
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
        for p in 0..<pixels {
            for c in 0..<channels {
                let top = Self.maximum(input[2 * p * channels + c], input[(2 * p + 1) * channels + c])
                let bottom = Self.maximum(input[rowFloats + 2 * p * channels + c], input[rowFloats + (2 * p + 1) * channels + c])
                #expect(output[p * channels + c].bitPattern == Self.maximum(top, bottom).bitPattern, "\(channels) channels: (\(p), \(c))")
            }
        }
        #expect(output[(pixels * channels)...].allSatisfy { $0 == 99 }, "\(channels) channels: a store ran past the last channel")
    }
}
