import Inference
import InferenceWide
import Testing
import _TestSupport

/// The fp32 depthwise family (`DepthwiseKernel.all`): every kernel's whole
/// steps (borders, padding rows, tiny maps) against
/// `WindowReference.depthwise` bit for bit, on the layers the planner
/// gives it in either kernel set, and the AVX-512 row sweeps alone for
/// every activation.
@Suite struct DepthwiseKernelTests {
    /// Maps (height, width, channels, padding).
    static let maps: [(Int, Int, Int, Int8)] = [(5, 7, 24, 0), (1, 1, 8, 0), (2, 3, 28, 0), (6, 4, 42, 0), (9, 11, 32, 1),
                                                (4, 19, 96, 0), (12, 21, 20, 0)]
    /// (window, stride): every window and stride the list tells apart.
    static let windows = [(3, 1), (3, 2), (3, 3), (5, 1), (5, 2), (7, 1), (2, 2)]

    /// Each kernel of the list on every window the planner gives it, in
    /// every kernel set this machine has; a kernel no window reaches fails.
    @Test(arguments: DepthwiseKernel.all)
    func everyKernelMatchesTheReferenceBitForBit(_ kernel: DepthwiseKernel) throws {
        try requireRunnable(kernel)
        var checked = 0
        for set in KernelSet.allCases where set.isAvailable {
            for (window, stride) in Self.windows {
                let shape = MicroKernelShape(kernelHeight: window, kernelWidth: window, strideHeight: stride, strideWidth: stride,
                                             outChannels: 0, isPointwise: false, fusedAdd: false)
                guard DepthwiseKernel.best(for: shape, features: set.features(on: .current)) == kernel else { continue }
                for map in Self.maps { try check(kernel, set, (window, stride), map) }
                checked += 1
            }
        }
        #expect(checked > 0, "no window of DepthwiseKernelTests.windows is planned with \(kernel): add one")
    }

    private func check(_ kernel: DepthwiseKernel, _ kernels: KernelSet, _ layer: (kernel: Int, stride: Int),
                       _ map: (height: Int, width: Int, channels: Int, padding: Int8)) throws {
        // VALID needs the window inside the map.
        guard map.padding == 0 || (map.height >= layer.kernel && map.width >= layer.kernel) else { return }
        for activation: Int8 in [0, 1, 3] {
            let tiny = TinyConvModel.depthwise(height: map.height, width: map.width, channels: map.channels, kernel: layer.kernel,
                                               stride: layer.stride, padding: map.padding, activation: activation,
                                               seed: UInt64(map.channels + Int(activation)))
            let model = try Model(bytes: tiny.serialized(), kernels: kernels)
            #expect(model.stepSummaries.map(\.kernel) == [kernel.rawValue], "\(layer) on \(map) in the \(kernels) set")
            var generator = SplitMix64(seed: UInt64(map.height * map.width))
            let input = (0..<(map.height * map.width * map.channels)).map { _ in generator.unitFloat() * 4 - 2 }
            let got = try Interpreter(model: model).run([input])[0]
            let shape = WindowReference.Shape(height: map.height, width: map.width, kernel: layer.kernel, stride: layer.stride,
                                              padding: map.padding)
            let expected = WindowReference.depthwise(input, shape, weights: tiny.weights, bias: tiny.bias, activation: activation)
            #expect(got.map(\.bitPattern) == expected.map(\.bitPattern),
                    "\(kernel) in the \(kernels) set, \(layer.kernel)×\(layer.kernel)/\(layer.stride) on \(map.height)×\(map.width)×\(map.channels), padding \(map.padding), activation \(activation)")
        }
    }

    /// `Depthwise3x3s1AVX512.row` over whole vectors, single vectors and a partial tail, every activation.
    @Test(.avx512, arguments: [8, 16, 24, 28, 42, 64, 96], ActivationKind.allCases)
    func rowMatchesTheScalarSumsBitForBit(_ channels: Int, _ kind: ActivationKind) {
        // 13 output pixels: whole blocks of four vectors, single vectors and a partial tail for every channel count.
        let pixels = 13, rowFloats = (pixels + 2) * channels
        let (input, weights, bias, slopes, table) = Self.stride1Layer(channels: channels, rows: 3, rowFloats: rowFloats,
                                                                      seed: UInt64(channels), kind)
        let count = pixels * channels
        var output = [Float](repeating: .nan, count: count + 16)
        input.withUnsafeBufferPointer { x in
            table.withUnsafeBufferPointer { t in
                output.withUnsafeMutableBufferPointer { out in
                    // `.prelu`'s pointer is ignored: the slopes are in the table.
                    Depthwise3x3s1AVX512.row(input: x.baseAddress!, rowFloats: rowFloats, channels: channels, table: t.baseAddress!,
                                         count: count, activation: kind.avx512(slopes: t.baseAddress!), output: out.baseAddress!)
                }
            }
        }
        expectRow(output, stride: 1, input: input, rowFloats: rowFloats, weights: weights, bias: bias, slopes: slopes,
                  channels: channels, pixels: pixels, kind)
    }

    /// `Depthwise3x3s1AVX512.twoRows` and `fourRows`, every activation:
    /// channel counts that are multiples of 16 (blocks of pixels and rows,
    /// then the last pixels by the flat sweep) and others (the flat sweep).
    @Test(.avx512, arguments: [16, 24, 32, 64, 96], ActivationKind.allCases)
    func twoAndFourRowsMatchTheScalarSumsBitForBit(_ channels: Int, _ kind: ActivationKind) {
        // 13 output pixels: four blocks of three and one more, or whole vectors and a tail.
        let pixels = 13, rowFloats = (pixels + 2) * channels
        let (input, weights, bias, slopes, table) = Self.stride1Layer(channels: channels, rows: 6, rowFloats: rowFloats,
                                                                      seed: UInt64(channels) + 29, kind)
        let count = pixels * channels
        for rows in [2, 4] {
            let empty = [Float](repeating: .nan, count: count + 16)
            var out0 = empty, out1 = empty, out2 = empty, out3 = empty
            input.withUnsafeBufferPointer { x in
                table.withUnsafeBufferPointer { t in
                    let r = (0..<6).map { x.baseAddress! + $0 * rowFloats }
                    let activation = kind.avx512(slopes: t.baseAddress!)
                    out0.withUnsafeMutableBufferPointer { o0 in
                        out1.withUnsafeMutableBufferPointer { o1 in
                            out2.withUnsafeMutableBufferPointer { o2 in
                                out3.withUnsafeMutableBufferPointer { o3 in
                                    if rows == 2 {
                                        Depthwise3x3s1AVX512.twoRows((r[0], r[1], r[2], r[3]), channels: channels, table: t.baseAddress!,
                                                                     count: count, activation: activation, outputs: (o0.baseAddress!, o1.baseAddress!))
                                    } else {
                                        Depthwise3x3s1AVX512.fourRows((r[0], r[1], r[2], r[3], r[4], r[5]), channels: channels,
                                                                      table: t.baseAddress!, count: count, activation: activation,
                                                                      outputs: (o0.baseAddress!, o1.baseAddress!, o2.baseAddress!, o3.baseAddress!))
                                    }
                                }
                            }
                        }
                    }
                }
            }
            let outputs = [out0, out1, out2, out3]
            for row in 0..<rows {
                expectRow(outputs[row], stride: 1, input: Array(input[(row * rowFloats)...]), rowFloats: rowFloats, weights: weights,
                          bias: bias, slopes: slopes, channels: channels, pixels: pixels, kind)
            }
        }
    }

    /// `Depthwise3x3s2AVX512.row` alone: eight-pixel groups and single
    /// pixels, fewer and more than 16 channels (a last block that overlaps
    /// the one before it), every activation, against the 8-lane order of
    /// sums bit for bit, and nothing written past the last pixel.
    @Test(.avx512, arguments: [8, 16, 28, 42, 88], ActivationKind.allCases)
    func strideTwoRowMatchesTheScalarSumsBitForBit(_ channels: Int, _ kind: ActivationKind) {
        let pixels = 13, inWidth = 2 * pixels + 1, rowFloats = inWidth * channels
        let padded = (channels + 7) / 8 * 8
        var generator = SplitMix64(seed: UInt64(channels) + 11)
        let input = (0..<(3 * rowFloats + 16)).map { _ in generator.unitFloat() * 2 - 1 }
        let weights = (0..<(9 * channels)).map { _ in generator.unitFloat() - 0.5 }
        // Readable 16 floats past the last channel, as the planner's table is.
        let bias = (0..<channels).map { _ in generator.unitFloat() * 2 - 1 } + [Float](repeating: 0, count: 16)
        let slopes = (0..<channels).map { _ in generator.unitFloat() } + [Float](repeating: 0, count: 16)
        var packed = [Float](repeating: 0, count: 9 * padded + 16)
        for tap in 0..<9 {
            for c in 0..<channels { packed[tap * padded + c] = weights[tap * channels + c] }
        }
        let count = pixels * channels
        var output = [Float](repeating: .nan, count: count + 16)
        input.withUnsafeBufferPointer { x in
            packed.withUnsafeBufferPointer { w in
                bias.withUnsafeBufferPointer { b in
                    slopes.withUnsafeBufferPointer { a in
                        output.withUnsafeMutableBufferPointer { out in
                            Depthwise3x3s2AVX512.row(top: x.baseAddress!, middle: x.baseAddress! + rowFloats,
                                                     bottom: x.baseAddress! + 2 * rowFloats, channels: channels, weights: w.baseAddress!,
                                                     padded: padded, bias: b.baseAddress!, pixels: pixels,
                                                     activation: kind.avx512(slopes: a.baseAddress!), output: out.baseAddress!)
                        }
                    }
                }
            }
        }
        expectRow(output, stride: 2, input: input, rowFloats: rowFloats, weights: weights, bias: bias, slopes: slopes,
                  channels: channels, pixels: pixels, kind)
    }

    /// Random input rows (`rows` of `rowFloats`, plus the read slack), a
    /// layer's weights, biases and slopes, and their packed table.
    private static func stride1Layer(channels: Int, rows: Int, rowFloats: Int, seed: UInt64, _ kind: ActivationKind)
        -> (input: [Float], weights: [Float], bias: [Float], slopes: [Float], table: [Float]) {
        var generator = SplitMix64(seed: seed)
        let input = (0..<(rows * rowFloats + 16)).map { _ in generator.unitFloat() * 2 - 1 }
        let weights = (0..<(9 * channels)).map { _ in generator.unitFloat() - 0.5 }
        let bias = (0..<channels).map { _ in generator.unitFloat() * 2 - 1 }
        let slopes = (0..<channels).map { _ in generator.unitFloat() }
        let table = Depthwise3x3s1AVX512.pack(weights: weights, bias: bias, slopes: kind == .prelu ? slopes : nil, channels: channels)
        return (input, weights, bias, slopes, table)
    }

    /// A row sweep's `output` against the 8-lane kernel's sums, in its order
    /// (kernel row, then column, from zero), bit for bit; past the row's
    /// `pixels · channels` floats it must still hold its NaNs.
    private func expectRow(_ output: [Float], stride: Int, input: [Float], rowFloats: Int, weights: [Float], bias: [Float],
                           slopes: [Float], channels: Int, pixels: Int, _ kind: ActivationKind) {
        for pixel in 0..<pixels {
            for channel in 0..<channels {
                var sum: Float = 0
                for ky in 0..<3 {
                    for kx in 0..<3 {
                        sum = sum.addingProduct(input[ky * rowFloats + (stride * pixel + kx) * channels + channel],
                                                weights[(ky * 3 + kx) * channels + channel])
                    }
                }
                let expected = kind.reference(sum + bias[channel], slope: slopes[channel])
                let got = output[pixel * channels + channel]
                #expect(got.bitPattern == expected.bitPattern, "pixel \(pixel) channel \(channel): \(got) against \(expected)")
            }
        }
        let untouched = output[(pixels * channels)...].allSatisfy { $0.isNaN }
        #expect(untouched, "wrote past the row")
    }
}
