import InferenceWide

/// One output row of a windowed convolution, as its interior kernels see it.
struct ConvRow {
    let g: WindowGeometry
    let input: UnsafePointer<Float>
    /// The 8-lane layout `[ceil(O/8)][KH][KW][I][8]`.
    let weights: UnsafePointer<Float>
    let oy: Int
    /// Input row of kernel row 0 (negative in the top padding).
    let iy0: Int
    /// Kernel rows inside the input.
    let kyStart: Int, kyEnd: Int
}

/// How a `conv_…` kernel computes the interior pixels of a row (those whose
/// whole kernel row lies inside the input); `Kernels.conv` does the rest
/// one pixel at a time.
protocol ConvInterior {
    /// Computes output columns `start..<end` of `row`, or a prefix of them,
    /// and returns the first column it left to the one-pixel loop.
    func run<E: OutputEpilogue>(_ row: ConvRow, start: Int, end: Int, epilogue: E) -> Int
}

/// An interior computed four output pixels at a time: the row's interior in
/// steps of four, the rest left to the one-pixel loop.
protocol FourPixelConvInterior: ConvInterior {
    /// Computes output columns `ox..<ox + 4` of `row`.
    func fourPixels<E: OutputEpilogue>(_ row: ConvRow, ox: Int, epilogue: E)
}

extension FourPixelConvInterior {
    @inline(__always)
    func run<E: OutputEpilogue>(_ row: ConvRow, start: Int, end: Int, epilogue: E) -> Int {
        var ox = start
        while ox + 4 <= end {
            fourPixels(row, ox: ox, epilogue: epilogue)
            ox += 4
        }
        return ox
    }
}

extension Kernels {
    /// The `conv_…` kernels' row loop: any kernel size, stride and zero
    /// padding. For one kernel row the valid taps of a pixel are contiguous
    /// in both the input (`kx·I + i`) and the packed weights, so each row is
    /// one dot-product run. `interior` computes each row's interior pixels;
    /// border pixels (and interior pixels it leaves) go one at a time.
    static func conv<I: ConvInterior, E: OutputEpilogue>(_ step: Step.Convolution, arena: UnsafeMutablePointer<Float>,
                                                         constants: UnsafePointer<Float>, interior: I, epilogue: E) {
        let g = step.geometry
        let input = UnsafePointer(arena + step.input)
        let weights = constants + step.weights
        // Output columns whose whole kernel row lies inside the input.
        let firstFull = min(g.outWidth, (g.padLeft + g.strideWidth - 1) / g.strideWidth)
        let lastFull = g.inWidth + g.padLeft - g.kernelWidth >= 0 ? min(g.outWidth, (g.inWidth + g.padLeft - g.kernelWidth) / g.strideWidth + 1) : 0
        for oy in 0..<g.outHeight {
            let iy0 = oy * g.strideHeight - g.padTop
            let row = ConvRow(g: g, input: input, weights: weights, oy: oy, iy0: iy0,
                              kyStart: max(0, -iy0), kyEnd: min(g.kernelHeight, g.inHeight - iy0))
            var resume = 0
            if firstFull < lastFull {
                for ox in 0..<firstFull { convPixel(row, ox: ox, epilogue: epilogue) }
                resume = interior.run(row, start: firstFull, end: lastFull, epilogue: epilogue)
            }
            for ox in resume..<g.outWidth { convPixel(row, ox: ox, epilogue: epilogue) }
        }
    }

    /// One output pixel, its window clipped to the input, 8 channels at a time.
    @inline(__always)
    static func convPixel<E: OutputEpilogue>(_ r: ConvRow, ox: Int, epilogue: E) {
        let g = r.g
        let inC = g.inChannels, outC = g.outChannels
        let blocks = (outC + 7) / 8
        let panel = g.kernelHeight * g.kernelWidth * inC * 8
        let element = (r.oy * g.outWidth + ox) * outC
        let ix0 = ox * g.strideWidth - g.padLeft
        let kxStart = max(0, -ix0), kxEnd = min(g.kernelWidth, g.inWidth - ix0)
        let run = max(0, kxEnd - kxStart) * inC
        for b in 0..<blocks {
            let wa = r.weights + b * panel
            var a = SIMD8<Float>.zero
            for ky in r.kyStart..<max(r.kyStart, r.kyEnd) {
                let x = r.input + ((r.iy0 + ky) * g.inWidth + ix0 + kxStart) * inC
                let w = wa + (ky * g.kernelWidth + kxStart) * inC * 8
                for k in 0..<run { a = a.addingProduct(SIMD8(repeating: x[k]), load(w + k * 8)) }
            }
            let c = b * 8
            epilogue.store(a, channel: c, lanes: min(8, outC - c), element: element + c)
        }
    }
}

/// `conv_4x16_avx2`'s interior: four pixels at a time, two 8-channel blocks
/// (eight accumulators) at a time, an odd last block alone.
struct ConvInterior4x16AVX2: FourPixelConvInterior {
    @inline(__always)
    func fourPixels<E: OutputEpilogue>(_ r: ConvRow, ox: Int, epilogue: E) {
        let g = r.g
        let inC = g.inChannels, outC = g.outChannels
        let blocks = (outC + 7) / 8
        let rowRun = g.kernelWidth * inC
        let panel = g.kernelHeight * rowRun * 8
        let pixelStep = g.strideWidth * inC
        let element = (r.oy * g.outWidth + ox) * outC
        let ix0 = ox * g.strideWidth - g.padLeft
        var b = 0
        while b + 1 < blocks {
            let wa = r.weights + b * panel
            let wb = wa + panel
            var a0 = SIMD8<Float>.zero, a1 = a0, a2 = a0, a3 = a0
            var b0 = a0, b1 = a0, b2 = a0, b3 = a0
            for ky in r.kyStart..<max(r.kyStart, r.kyEnd) {
                let x0 = r.input + ((r.iy0 + ky) * g.inWidth + ix0) * inC
                let x1 = x0 + pixelStep, x2 = x1 + pixelStep, x3 = x2 + pixelStep
                let wra = wa + ky * rowRun * 8, wrb = wb + ky * rowRun * 8
                for k in 0..<rowRun {
                    let va = Kernels.load(wra + k * 8), vb = Kernels.load(wrb + k * 8)
                    let s0 = SIMD8(repeating: x0[k]), s1 = SIMD8(repeating: x1[k])
                    let s2 = SIMD8(repeating: x2[k]), s3 = SIMD8(repeating: x3[k])
                    a0 = a0.addingProduct(s0, va); b0 = b0.addingProduct(s0, vb)
                    a1 = a1.addingProduct(s1, va); b1 = b1.addingProduct(s1, vb)
                    a2 = a2.addingProduct(s2, va); b2 = b2.addingProduct(s2, vb)
                    a3 = a3.addingProduct(s3, va); b3 = b3.addingProduct(s3, vb)
                }
            }
            let c = b * 8
            let lanes = min(8, outC - c)
            epilogue.store(a0, channel: c, lanes: lanes, element: element + c)
            epilogue.store(a1, channel: c, lanes: lanes, element: element + outC + c)
            epilogue.store(a2, channel: c, lanes: lanes, element: element + 2 * outC + c)
            epilogue.store(a3, channel: c, lanes: lanes, element: element + 3 * outC + c)
            let c2 = c + 8
            let lanes2 = min(8, outC - c2)
            epilogue.store(b0, channel: c2, lanes: lanes2, element: element + c2)
            epilogue.store(b1, channel: c2, lanes: lanes2, element: element + outC + c2)
            epilogue.store(b2, channel: c2, lanes: lanes2, element: element + 2 * outC + c2)
            epilogue.store(b3, channel: c2, lanes: lanes2, element: element + 3 * outC + c2)
            b += 2
        }
        if b < blocks {
            // An odd last block: alone, not computed twice.
            let wa = r.weights + b * panel
            var a0 = SIMD8<Float>.zero, a1 = a0, a2 = a0, a3 = a0
            for ky in r.kyStart..<max(r.kyStart, r.kyEnd) {
                let x0 = r.input + ((r.iy0 + ky) * g.inWidth + ix0) * inC
                let x1 = x0 + pixelStep, x2 = x1 + pixelStep, x3 = x2 + pixelStep
                let wra = wa + ky * rowRun * 8
                for k in 0..<rowRun {
                    let va = Kernels.load(wra + k * 8)
                    a0 = a0.addingProduct(SIMD8(repeating: x0[k]), va)
                    a1 = a1.addingProduct(SIMD8(repeating: x1[k]), va)
                    a2 = a2.addingProduct(SIMD8(repeating: x2[k]), va)
                    a3 = a3.addingProduct(SIMD8(repeating: x3[k]), va)
                }
            }
            let c = b * 8
            let lanes = min(8, outC - c)
            epilogue.store(a0, channel: c, lanes: lanes, element: element + c)
            epilogue.store(a1, channel: c, lanes: lanes, element: element + outC + c)
            epilogue.store(a2, channel: c, lanes: lanes, element: element + 2 * outC + c)
            epilogue.store(a3, channel: c, lanes: lanes, element: element + 3 * outC + c)
        }
    }
}

/// `conv_4x24_avx2`'s interior (17–24 output channels, the short-range
/// detector's first layer): four pixels × three 8-channel blocks in twelve
/// accumulators sharing each input broadcast, where the two-block tile plus
/// a lone third block loaded every input value twice.
struct ConvInterior4x24AVX2: FourPixelConvInterior {
    @inline(__always)
    func fourPixels<E: OutputEpilogue>(_ r: ConvRow, ox: Int, epilogue: E) {
        let g = r.g
        let inC = g.inChannels, outC = g.outChannels
        let rowRun = g.kernelWidth * inC
        let panel = g.kernelHeight * rowRun * 8
        let pixelStep = g.strideWidth * inC
        let element = (r.oy * g.outWidth + ox) * outC
        let rowStart = r.input + (r.iy0 * g.inWidth + ox * g.strideWidth - g.padLeft) * inC
        var a0 = SIMD8<Float>.zero, a1 = a0, a2 = a0, a3 = a0
        var b0 = a0, b1 = a0, b2 = a0, b3 = a0
        var c0 = a0, c1 = a0, c2 = a0, c3 = a0
        for ky in r.kyStart..<max(r.kyStart, r.kyEnd) {
            let x0 = rowStart + ky * g.inWidth * inC
            let x1 = x0 + pixelStep, x2 = x1 + pixelStep, x3 = x2 + pixelStep
            let wa = r.weights + ky * rowRun * 8, wb = wa + panel, wc = wb + panel
            for k in 0..<rowRun {
                let va = Kernels.load(wa + k * 8), vb = Kernels.load(wb + k * 8), vc = Kernels.load(wc + k * 8)
                var s = SIMD8(repeating: x0[k])
                a0 = a0.addingProduct(s, va); b0 = b0.addingProduct(s, vb); c0 = c0.addingProduct(s, vc)
                s = SIMD8(repeating: x1[k])
                a1 = a1.addingProduct(s, va); b1 = b1.addingProduct(s, vb); c1 = c1.addingProduct(s, vc)
                s = SIMD8(repeating: x2[k])
                a2 = a2.addingProduct(s, va); b2 = b2.addingProduct(s, vb); c2 = c2.addingProduct(s, vc)
                s = SIMD8(repeating: x3[k])
                a3 = a3.addingProduct(s, va); b3 = b3.addingProduct(s, vb); c3 = c3.addingProduct(s, vc)
            }
        }
        let lanes = min(8, outC - 16)
        epilogue.store(a0, channel: 0, lanes: 8, element: element)
        epilogue.store(b0, channel: 8, lanes: 8, element: element + 8)
        epilogue.store(c0, channel: 16, lanes: lanes, element: element + 16)
        epilogue.store(a1, channel: 0, lanes: 8, element: element + outC)
        epilogue.store(b1, channel: 8, lanes: 8, element: element + outC + 8)
        epilogue.store(c1, channel: 16, lanes: lanes, element: element + outC + 16)
        epilogue.store(a2, channel: 0, lanes: 8, element: element + 2 * outC)
        epilogue.store(b2, channel: 8, lanes: 8, element: element + 2 * outC + 8)
        epilogue.store(c2, channel: 16, lanes: lanes, element: element + 2 * outC + 16)
        epilogue.store(a3, channel: 0, lanes: 8, element: element + 3 * outC)
        epilogue.store(b3, channel: 8, lanes: 8, element: element + 3 * outC + 8)
        epilogue.store(c3, channel: 16, lanes: lanes, element: element + 3 * outC + 16)
    }
}

/// `conv_8x24_avx512_interior_avx2_border`'s interior (24 channels, no fused
/// ADD): eight pixels per `ConvInterior24AVX512.eightPixels` call, the last
/// eight of a row overlapping pixels already written (the same values
/// again); a row with fewer than eight interior pixels four at a time.
struct ConvInterior8x24AVX512: ConvInterior {
    /// `[KH][KW][I][32]` (`ConvInterior24AVX512.pack`).
    let weights: UnsafePointer<Float>
    let bias: UnsafePointer<Float>
    let activation: AVX512Activation
    let output: UnsafeMutablePointer<Float>

    @inline(__always)
    func run<E: OutputEpilogue>(_ r: ConvRow, start: Int, end: Int, epilogue: E) -> Int {
        let g = r.g
        let inC = g.inChannels
        let rowRun = g.kernelWidth * inC, pixelStep = g.strideWidth * inC, inRowFloats = g.inWidth * inC
        var ox = start
        if end - start >= 8 {
            while ox < end {
                let first = min(ox, end - 8)
                ConvInterior24AVX512.eightPixels(rowStart: r.input + (r.iy0 * g.inWidth + first * g.strideWidth - g.padLeft) * inC,
                                                 pixelStep: pixelStep, inRowFloats: inRowFloats, rowRun: rowRun,
                                                 kyStart: r.kyStart, kyEnd: r.kyEnd, weights: weights, bias: bias,
                                                 activation: activation, output: output + (r.oy * g.outWidth + first) * g.outChannels)
                ox = first + 8
            }
            return end
        }
        while ox + 4 <= end {
            ConvInterior24AVX512.fourPixels(rowStart: r.input + (r.iy0 * g.inWidth + ox * g.strideWidth - g.padLeft) * inC,
                                            pixelStep: pixelStep, inRowFloats: inRowFloats, rowRun: rowRun,
                                            kyStart: r.kyStart, kyEnd: r.kyEnd, weights: weights, bias: bias,
                                            activation: activation, output: output + (r.oy * g.outWidth + ox) * g.outChannels)
            ox += 4
        }
        return ox
    }
}

/// The interior of `conv_8x16_avx512_interior_avx2_border` and
/// `conv_8x32_avx512_interior_avx2_border` (no fused ADD): eight pixels per
/// `ConvInterior16or32AVX512.eightPixels` call, overlapping at the row's end
/// like `ConvInterior8x24AVX512`; a row with fewer than eight interior
/// pixels as `conv_4x16_avx2`.
struct ConvInterior8x16or32AVX512: ConvInterior {
    /// `[O/16][KH·KW·I][16]` (`Conv1x1AVX512.pack` with KH·KW·I inputs).
    let weights: UnsafePointer<Float>
    let bias: UnsafePointer<Float>
    let activation: AVX512Activation
    let output: UnsafeMutablePointer<Float>

    @inline(__always)
    func run<E: OutputEpilogue>(_ r: ConvRow, start: Int, end: Int, epilogue: E) -> Int {
        guard end - start >= 8 else { return ConvInterior4x16AVX2().run(r, start: start, end: end, epilogue: epilogue) }
        let g = r.g
        let inC = g.inChannels
        let rowRun = g.kernelWidth * inC
        var ox = start
        while ox < end {
            let first = min(ox, end - 8)
            ConvInterior16or32AVX512.eightPixels(outputChannels: g.outChannels,
                                                 rowStart: r.input + (r.iy0 * g.inWidth + first * g.strideWidth - g.padLeft) * inC,
                                                 pixelStep: g.strideWidth * inC, inRowFloats: g.inWidth * inC, rowRun: rowRun,
                                                 taps: g.kernelHeight * rowRun, kyStart: r.kyStart, kyEnd: r.kyEnd,
                                                 weights: weights, bias: bias, activation: activation,
                                                 output: output + (r.oy * g.outWidth + first) * g.outChannels)
            ox = first + 8
        }
        return end
    }
}
