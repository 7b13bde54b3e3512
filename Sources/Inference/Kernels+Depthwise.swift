import InferenceWide

/// One output row of a depthwise convolution whose kernel rows all lie
/// inside the input, as the `dwconv_…_avx2` interiors see it.
struct DepthwiseRow {
    let g: WindowGeometry
    let input: UnsafePointer<Float>
    /// `[KH][KW][roundUp8(C)]`.
    let weights: UnsafePointer<Float>
    /// `roundUp8(C)`.
    let padded: Int
    let oy: Int
    /// Input row of kernel row 0.
    let iy0: Int
}

/// How a `dwconv_…_avx2` kernel computes the interior pixels of a row
/// (whole windows inside the input); `Kernels.depthwise` does the borders
/// one pixel at a time.
protocol DepthwiseInterior {
    /// Computes output columns `start..<end` of `row` for every channel.
    func run<E: OutputEpilogue>(_ row: DepthwiseRow, start: Int, end: Int, epilogue: E)
}

extension Kernels {
    /// The `dwconv_…_avx2` kernels' row loop (depth multiplier 1, any kernel
    /// size, stride and padding; weights `[KH][KW][roundUp8(C)]`): rows whose
    /// kernel rows all lie inside the input get `interior` for their
    /// interior columns; every other pixel goes one at a time per 8-channel block.
    static func depthwise<I: DepthwiseInterior, E: OutputEpilogue>(_ step: Step.Depthwise, arena: UnsafeMutablePointer<Float>,
                                                                   constants: UnsafePointer<Float>, interior: I, epilogue: E) {
        let g = step.geometry
        let channels = g.inChannels
        let padded = (channels + 7) / 8 * 8
        let input = UnsafePointer(arena + step.input)
        let weights = constants + step.weights
        let kw = g.kernelWidth, kh = g.kernelHeight
        let sw = g.strideWidth
        let firstFull = min(g.outWidth, (g.padLeft + sw - 1) / sw)
        let lastFull = g.inWidth + g.padLeft - kw >= 0 ? min(g.outWidth, (g.inWidth + g.padLeft - kw) / sw + 1) : 0
        for oy in 0..<g.outHeight {
            let iy0 = oy * g.strideHeight - g.padTop
            let kyStart = max(0, -iy0), kyEnd = min(kh, g.inHeight - iy0)
            let interiorDone = kyStart == 0 && kyEnd == kh && firstFull < lastFull
            if interiorDone {
                interior.run(DepthwiseRow(g: g, input: input, weights: weights, padded: padded, oy: oy, iy0: iy0),
                             start: firstFull, end: lastFull, epilogue: epilogue)
            }
            var c = 0
            while c < channels {
                let lanes = min(8, channels - c)
                let w = weights + c
                @inline(__always) func pixel(_ ox: Int) {
                    let acc = depthwisePixel(input, w, g: g, channels: channels, padded: padded, c: c, oy: oy, ox: ox, iy0: iy0, kyStart: kyStart, kyEnd: kyEnd)
                    epilogue.store(acc, channel: c, lanes: lanes, element: (oy * g.outWidth + ox) * channels + c)
                }
                for ox in 0..<(interiorDone ? firstFull : g.outWidth) { pixel(ox) }
                if interiorDone { for ox in lastFull..<g.outWidth { pixel(ox) } }
                c += 8
            }
        }
    }
    /// Floats of arena scratch `depthwise3x3s1AVX512` needs: a row of zeros as
    /// long as an input row plus the sweep's read slack, then one 3×3 window.
    static func depthwise3x3s1AVX512Scratch(_ g: WindowGeometry) -> Int {
        (g.inWidth * g.inChannels + 2 * g.inChannels + 32) + (9 * g.inChannels + 32)
    }

    /// `dwconv3x3s1_4rows_avx512`: stride-1 3×3 depthwise on 16 lanes
    /// (`Depthwise3x3s1AVX512`; `table` is its packed table): each output row's interior columns in
    /// one flat sweep, kernel rows in the padding read from a row of zeros;
    /// each border pixel from a copy of its 3×3 window with zeros outside the
    /// input. Adding a zero tap leaves a sum unchanged (it is never −0), so
    /// results match the 8-lane kernel, which skips those taps, bit for bit.
    static func depthwise3x3s1AVX512(_ step: Step.Depthwise, arena: UnsafeMutablePointer<Float>, constants: UnsafePointer<Float>,
                                 table: UnsafePointer<Float>) {
        let g = step.geometry
        let channels = g.inChannels
        let input = UnsafePointer(arena + step.input), output = arena + step.output
        let activation = step.epilogue.first.avx512(constants)
        let rowFloats = g.inWidth * channels
        let firstFull = min(g.outWidth, g.padLeft)
        let lastFull = max(firstFull, min(g.outWidth, g.inWidth + g.padLeft - 2))
        // A row of zeros as long as an input row (plus the sweep's read slack), then one 3×3 window,
        // in the plan's scratch region (other plans of an interpreter may have left data there).
        // The row is zeroed when a kernel row first falls in the padding: a
        // streamed window inside the tensor (most of them) needs none.
        let zeroCount = rowFloats + 2 * channels + 32
        do {
            let zeros = arena + step.scratch, window = zeros + zeroCount
            var zeroed = false
            func inputRow(_ iy: Int) -> UnsafePointer<Float> {
                if iy >= 0 && iy < g.inHeight { return input + iy * rowFloats }
                if !zeroed {
                    zeros.initialize(repeating: 0, count: zeroCount)
                    zeroed = true
                }
                return UnsafePointer(zeros)
            }
            /// `channels` floats from `source` (nil: zeros) to `target`: in
            /// 8-lane vectors for a multiple of 8 channels (a window tap is
            /// one to eight of them; `update(from:count:)` was a `memmove`
            /// call per tap), else element by element.
            @inline(__always) func copyTap(_ source: UnsafePointer<Float>?, _ target: UnsafeMutablePointer<Float>) {
                guard channels % 8 == 0 else {
                    if let source { target.update(from: source, count: channels) } else { target.update(repeating: 0, count: channels) }
                    return
                }
                var c = 0
                while c < channels {
                    UnsafeMutableRawPointer(target + c).storeBytes(of: source.map { load($0 + c) } ?? .zero, as: SIMD8<Float>.self)
                    c += 8
                }
            }
            /// Border pixels of output row `row`, each from a copy of its window.
            func borderPixels(_ row: Int) {
                let iy0 = row - g.padTop
                let outRow = output + row * g.outWidth * channels
                func pixel(_ ox: Int) {
                    for ky in 0..<3 {
                        let iy = iy0 + ky
                        for kx in 0..<3 {
                            let ix = ox - g.padLeft + kx
                            let inside = iy >= 0 && iy < g.inHeight && ix >= 0 && ix < g.inWidth
                            copyTap(inside ? input + iy * rowFloats + ix * channels : nil, window + (ky * 3 + kx) * channels)
                        }
                    }
                    Depthwise3x3s1AVX512.row(top: window, middle: window + 3 * channels, bottom: window + 6 * channels,
                                         channels: channels, table: table, count: channels, activation: activation,
                                         output: outRow + ox * channels)
                }
                // The columns left and right of the interior (`lastFull` ≥ `firstFull`), not a test of every column.
                for ox in 0..<firstFull { pixel(ox) }
                for ox in lastFull..<g.outWidth { pixel(ox) }
            }
            let start = (firstFull - g.padLeft) * channels, interior = (lastFull - firstFull) * channels
            var oy = 0
            while oy < g.outHeight {
                let iy0 = oy - g.padTop
                // Four output rows per sweep where there are four (their six input rows, or zeros).
                let quad = oy + 3 < g.outHeight
                if quad {
                    if firstFull < lastFull {
                        let first = output + (oy * g.outWidth + firstFull) * channels, next = g.outWidth * channels
                        Depthwise3x3s1AVX512.fourRows((inputRow(iy0) + start, inputRow(iy0 + 1) + start, inputRow(iy0 + 2) + start,
                                                   inputRow(iy0 + 3) + start, inputRow(iy0 + 4) + start, inputRow(iy0 + 5) + start),
                                                  channels: channels, table: table, count: interior, activation: activation,
                                                  outputs: (first, first + next, first + 2 * next, first + 3 * next))
                    }
                    for row in oy..<(oy + 4) { borderPixels(row) }
                    oy += 4
                    continue
                }
                // Then two output rows per sweep where there are two; their four input rows (or zeros).
                let pair = oy + 1 < g.outHeight
                let rows = (inputRow(iy0) + start, inputRow(iy0 + 1) + start, inputRow(iy0 + 2) + start, inputRow(iy0 + 3) + start)
                if firstFull < lastFull {
                    let first = output + (oy * g.outWidth + firstFull) * channels
                    if pair {
                        Depthwise3x3s1AVX512.twoRows(rows, channels: channels, table: table, count: interior, activation: activation,
                                                 outputs: (first, first + g.outWidth * channels))
                    } else {
                        Depthwise3x3s1AVX512.row(top: rows.0, middle: rows.1, bottom: rows.2, channels: channels, table: table,
                                             count: interior, activation: activation, output: first)
                    }
                }
                for row in oy..<(pair ? oy + 2 : oy + 1) { borderPixels(row) }
                oy += pair ? 2 : 1
            }
        }
    }

    /// One depthwise tap for four pixels.
    @inline(__always)
    static func tap4(
        _ a0: inout SIMD8<Float>, _ a1: inout SIMD8<Float>, _ a2: inout SIMD8<Float>, _ a3: inout SIMD8<Float>,
        _ q0: UnsafePointer<Float>, _ q1: UnsafePointer<Float>, _ q2: UnsafePointer<Float>, _ q3: UnsafePointer<Float>,
        _ weight: SIMD8<Float>
    ) {
        a0 = a0.addingProduct(load(q0), weight); a1 = a1.addingProduct(load(q1), weight)
        a2 = a2.addingProduct(load(q2), weight); a3 = a3.addingProduct(load(q3), weight)
    }

    /// One depthwise output vector over the taps inside the input.
    @inline(__always)
    static func depthwisePixel(
        _ input: UnsafePointer<Float>, _ w: UnsafePointer<Float>, g: WindowGeometry, channels: Int, padded: Int,
        c: Int, oy: Int, ox: Int, iy0: Int, kyStart: Int, kyEnd: Int
    ) -> SIMD8<Float> {
        let ix0 = ox * g.strideWidth - g.padLeft
        let kxStart = max(0, -ix0), kxEnd = min(g.kernelWidth, g.inWidth - ix0)
        var acc = SIMD8<Float>.zero
        var ky = kyStart
        while ky < kyEnd {
            let row = input + ((iy0 + ky) * g.inWidth + ix0) * channels + c
            let wrow = w + ky * g.kernelWidth * padded
            var kx = kxStart
            while kx < kxEnd {
                acc = acc.addingProduct(load(row + kx * channels), load(wrow + kx * padded))
                kx += 1
            }
            ky += 1
        }
        return acc
    }
}

/// `dwconv3x3s1_8px_avx2`'s interior: channel-inner, eight pixels at a time
/// (`Kernels.depthwise3x3Stride1Row`), the last few one at a time.
struct DepthwiseInterior3x3s1AVX2: DepthwiseInterior {
    @inline(__always)
    func run<E: OutputEpilogue>(_ r: DepthwiseRow, start: Int, end: Int, epilogue: E) {
        let done = Kernels.depthwise3x3Stride1Row(r.g, input: r.input, weights: r.weights, padded: r.padded, oy: r.oy, iy0: r.iy0,
                                                  start: start, end: end, epilogue: epilogue)
        DepthwiseInterior1pxAVX2().run(r, start: done, end: end, epilogue: epilogue)
    }
}

/// `dwconv3x3s2_4px_avx2`'s interior: channel-inner, four pixels at a time
/// (`Kernels.depthwise3x3Stride2Row`), the last few one at a time.
struct DepthwiseInterior3x3s2AVX2: DepthwiseInterior {
    @inline(__always)
    func run<E: OutputEpilogue>(_ r: DepthwiseRow, start: Int, end: Int, epilogue: E) {
        let done = Kernels.depthwise3x3Stride2Row(r.g, input: r.input, weights: r.weights, padded: r.padded, oy: r.oy, iy0: r.iy0,
                                                  start: start, end: end, epilogue: epilogue)
        DepthwiseInterior1pxAVX2().run(r, start: done, end: end, epilogue: epilogue)
    }
}

/// `dwconv3x3s2_8px_avx512`'s interior: eight pixels × 16 channels at a
/// time (`Depthwise3x3s2AVX512`), which applies the bias and the first
/// activation itself; the planner chooses it only without a fused ADD.
struct DepthwiseInterior3x3s2AVX512: DepthwiseInterior {
    /// The packed table's bias row (then the slopes, then slack).
    let bias: UnsafePointer<Float>
    let activation: AVX512Activation
    let output: UnsafeMutablePointer<Float>

    @inline(__always)
    func run<E: OutputEpilogue>(_ r: DepthwiseRow, start: Int, end: Int, epilogue: E) {
        let g = r.g, channels = g.inChannels, rowFloats = g.inWidth * channels
        let top = r.input + (r.iy0 * g.inWidth + start * g.strideWidth - g.padLeft) * channels
        Depthwise3x3s2AVX512.row(top: top, middle: top + rowFloats, bottom: top + 2 * rowFloats, channels: channels,
                                 weights: r.weights, padded: r.padded, bias: bias, pixels: end - start, activation: activation,
                                 output: output + (r.oy * g.outWidth + start) * channels)
    }
}

/// `dwconv3x3_4px_avx2`'s interior: per 8-channel block, four pixels at a
/// time with nine weight vectors in registers (`Kernels.depthwise3x3Row`).
struct DepthwiseInterior3x3AVX2: DepthwiseInterior {
    @inline(__always)
    func run<E: OutputEpilogue>(_ r: DepthwiseRow, start: Int, end: Int, epilogue: E) {
        let channels = r.g.inChannels
        var c = 0
        while c < channels {
            _ = Kernels.depthwise3x3Row(r.g, input: r.input, weights: r.weights + c, padded: r.padded, c: c, lanes: min(8, channels - c),
                                        oy: r.oy, iy0: r.iy0, start: start, end: end, epilogue: epilogue)
            c += 8
        }
    }
}

/// `dwconv5x5_4px_avx2`'s interior: per 8-channel block, four pixels per
/// weight load (four independent FMA chains), the rest one at a time.
struct DepthwiseInterior5x5AVX2: DepthwiseInterior {
    @inline(__always)
    func run<E: OutputEpilogue>(_ r: DepthwiseRow, start: Int, end: Int, epilogue: E) {
        let g = r.g
        let channels = g.inChannels, padded = r.padded
        let rowStride = g.inWidth * channels
        let pixelStride = g.strideWidth * channels
        let c1 = channels, c2 = 2 * channels, c3 = 3 * channels, c4 = 4 * channels
        var c = 0
        while c < channels {
            let lanes = min(8, channels - c)
            let w = r.weights + c
            var ox = start
            while ox + 4 <= end {
                var q = r.input + (r.iy0 * g.inWidth + ox * g.strideWidth - g.padLeft) * channels + c
                var wr = w
                var a0 = SIMD8<Float>.zero, a1 = a0, a2 = a0, a3 = a0
                for _ in 0..<5 {
                    let q1 = q + pixelStride, q2 = q1 + pixelStride, q3 = q2 + pixelStride
                    Kernels.tap4(&a0, &a1, &a2, &a3, q, q1, q2, q3, Kernels.load(wr))
                    Kernels.tap4(&a0, &a1, &a2, &a3, q + c1, q1 + c1, q2 + c1, q3 + c1, Kernels.load(wr + padded))
                    Kernels.tap4(&a0, &a1, &a2, &a3, q + c2, q1 + c2, q2 + c2, q3 + c2, Kernels.load(wr + 2 * padded))
                    Kernels.tap4(&a0, &a1, &a2, &a3, q + c3, q1 + c3, q2 + c3, q3 + c3, Kernels.load(wr + 3 * padded))
                    Kernels.tap4(&a0, &a1, &a2, &a3, q + c4, q1 + c4, q2 + c4, q3 + c4, Kernels.load(wr + 4 * padded))
                    q += rowStride
                    wr += 5 * padded
                }
                let element = (r.oy * g.outWidth + ox) * channels + c
                epilogue.store(a0, channel: c, lanes: lanes, element: element)
                epilogue.store(a1, channel: c, lanes: lanes, element: element + channels)
                epilogue.store(a2, channel: c, lanes: lanes, element: element + 2 * channels)
                epilogue.store(a3, channel: c, lanes: lanes, element: element + 3 * channels)
                ox += 4
            }
            DepthwiseInterior1pxAVX2.pixels(r, c: c, start: ox, end: end, epilogue: epilogue)
            c += 8
        }
    }
}

/// `dwconv_1px_avx2`'s interior: one pixel × 8 channels at a time.
struct DepthwiseInterior1pxAVX2: DepthwiseInterior {
    @inline(__always)
    func run<E: OutputEpilogue>(_ r: DepthwiseRow, start: Int, end: Int, epilogue: E) {
        var c = 0
        while c < r.g.inChannels {
            Self.pixels(r, c: c, start: start, end: end, epilogue: epilogue)
            c += 8
        }
    }

    /// Columns `start..<end` of the 8-channel block at `c`.
    @inline(__always)
    static func pixels<E: OutputEpilogue>(_ r: DepthwiseRow, c: Int, start: Int, end: Int, epilogue: E) {
        let g = r.g, channels = g.inChannels
        for ox in start..<max(start, end) {
            let acc = Kernels.depthwisePixel(r.input, r.weights + c, g: g, channels: channels, padded: r.padded, c: c, oy: r.oy, ox: ox,
                                             iy0: r.iy0, kyStart: 0, kyEnd: g.kernelHeight)
            epilogue.store(acc, channel: c, lanes: min(8, channels - c), element: (r.oy * g.outWidth + ox) * channels + c)
        }
    }
}
