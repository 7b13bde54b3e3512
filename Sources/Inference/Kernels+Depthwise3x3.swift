extension Kernels {
    /// The interior of one output row of a 3×3 depthwise convolution for one
    /// 8-channel block: output columns `start..<end` whose windows lie fully
    /// inside the input rows `iy0..<iy0+3`. Four pixels at a time (four
    /// independent FMA chains), nine weight vectors in registers. Kept out of
    /// line so LLVM compiles it with whole 8-lane vectors.
    @inline(never)
    static func depthwise3x3Row<E: OutputEpilogue>(
        _ g: WindowGeometry, input: UnsafePointer<Float>, weights w: UnsafePointer<Float>, padded: Int,
        c: Int, lanes: Int, oy: Int, iy0: Int, start: Int, end: Int, epilogue: E
    ) -> Int {
        let channels = g.inChannels
        let w0 = load(w), w1 = load(w + padded), w2 = load(w + 2 * padded)
        let w3 = load(w + 3 * padded), w4 = load(w + 4 * padded), w5 = load(w + 5 * padded)
        let w6 = load(w + 6 * padded), w7 = load(w + 7 * padded), w8 = load(w + 8 * padded)
        let rowStride = g.inWidth * channels
        let pixelStride = g.strideWidth * channels
        let c1 = channels, c2 = 2 * channels
        var ox = start
        var r0 = input + (iy0 * g.inWidth + ox * g.strideWidth - g.padLeft) * channels + c
        var element = (oy * g.outWidth + ox) * channels + c
        while ox + 4 <= end {
            let p0 = r0, p1 = p0 + pixelStride, p2 = p1 + pixelStride, p3 = p2 + pixelStride
            var a0 = load(p0) * w0, a1 = load(p1) * w0, a2 = load(p2) * w0, a3 = load(p3) * w0
            a0 = a0.addingProduct(load(p0 + c1), w1); a1 = a1.addingProduct(load(p1 + c1), w1)
            a2 = a2.addingProduct(load(p2 + c1), w1); a3 = a3.addingProduct(load(p3 + c1), w1)
            a0 = a0.addingProduct(load(p0 + c2), w2); a1 = a1.addingProduct(load(p1 + c2), w2)
            a2 = a2.addingProduct(load(p2 + c2), w2); a3 = a3.addingProduct(load(p3 + c2), w2)
            let m0 = p0 + rowStride, m1 = p1 + rowStride, m2 = p2 + rowStride, m3 = p3 + rowStride
            a0 = a0.addingProduct(load(m0), w3); a1 = a1.addingProduct(load(m1), w3)
            a2 = a2.addingProduct(load(m2), w3); a3 = a3.addingProduct(load(m3), w3)
            a0 = a0.addingProduct(load(m0 + c1), w4); a1 = a1.addingProduct(load(m1 + c1), w4)
            a2 = a2.addingProduct(load(m2 + c1), w4); a3 = a3.addingProduct(load(m3 + c1), w4)
            a0 = a0.addingProduct(load(m0 + c2), w5); a1 = a1.addingProduct(load(m1 + c2), w5)
            a2 = a2.addingProduct(load(m2 + c2), w5); a3 = a3.addingProduct(load(m3 + c2), w5)
            let d0 = m0 + rowStride, d1 = m1 + rowStride, d2 = m2 + rowStride, d3 = m3 + rowStride
            a0 = a0.addingProduct(load(d0), w6); a1 = a1.addingProduct(load(d1), w6)
            a2 = a2.addingProduct(load(d2), w6); a3 = a3.addingProduct(load(d3), w6)
            a0 = a0.addingProduct(load(d0 + c1), w7); a1 = a1.addingProduct(load(d1 + c1), w7)
            a2 = a2.addingProduct(load(d2 + c1), w7); a3 = a3.addingProduct(load(d3 + c1), w7)
            a0 = a0.addingProduct(load(d0 + c2), w8); a1 = a1.addingProduct(load(d1 + c2), w8)
            a2 = a2.addingProduct(load(d2 + c2), w8); a3 = a3.addingProduct(load(d3 + c2), w8)
            epilogue.store(a0, channel: c, lanes: lanes, element: element)
            epilogue.store(a1, channel: c, lanes: lanes, element: element + channels)
            epilogue.store(a2, channel: c, lanes: lanes, element: element + 2 * channels)
            epilogue.store(a3, channel: c, lanes: lanes, element: element + 3 * channels)
            r0 += 4 * pixelStride
            element += 4 * channels
            ox += 4
        }
        while ox < end {
            let r1 = r0 + rowStride, r2 = r1 + rowStride
            var acc = load(r0) * w0
            acc = acc.addingProduct(load(r0 + c1), w1)
            acc = acc.addingProduct(load(r0 + c2), w2)
            acc = acc.addingProduct(load(r1), w3)
            acc = acc.addingProduct(load(r1 + c1), w4)
            acc = acc.addingProduct(load(r1 + c2), w5)
            acc = acc.addingProduct(load(r2), w6)
            acc = acc.addingProduct(load(r2 + c1), w7)
            acc = acc.addingProduct(load(r2 + c2), w8)
            epilogue.store(acc, channel: c, lanes: lanes, element: element)
            r0 += pixelStride
            element += channels
            ox += 1
        }
        return ox
    }
}

extension Kernels {
    /// Stride-1 3×3 depthwise, interior columns `start..<end` of one output row,
    /// all channels: per group of four pixels, every 8-channel block in turn
    /// (memory is walked in order), each input vector of a kernel row loaded
    /// once and used by every pixel it touches (six loads for twelve FMAs).
    @inline(never)
    static func depthwise3x3Stride1Row<E: OutputEpilogue>(
        _ g: WindowGeometry, input: UnsafePointer<Float>, weights: UnsafePointer<Float>, padded: Int,
        oy: Int, iy0: Int, start: Int, end: Int, epilogue: E
    ) {
        let channels = g.inChannels
        let rowStride = g.inWidth * channels
        let c1 = channels, c2 = 2 * channels, c3 = 3 * channels, c4 = 4 * channels, c5 = 5 * channels
        let rowBase = input + (iy0 * g.inWidth - g.padLeft) * channels
        let outBase = oy * g.outWidth * channels
        var ox = start
        // Eight pixels: eight independent FMA chains (four leave the FMA units
        // waiting on latency) and ten loads per kernel row for 24 FMAs.
        let c6 = 6 * channels, c7 = 7 * channels, c8 = 8 * channels, c9 = 9 * channels
        while ox + 8 <= end {
            var c = 0
            while c < channels {
                let lanes = min(8, channels - c)
                var a0 = SIMD8<Float>.zero, a1 = a0, a2 = a0, a3 = a0, a4 = a0, a5 = a0, a6 = a0, a7 = a0
                var r = rowBase + ox * channels + c
                var w = weights + c
                for _ in 0..<3 {
                    let wa = load(w), wb = load(w + padded), wc = load(w + 2 * padded)
                    let x0 = load(r), x1 = load(r + c1), x2 = load(r + c2)
                    a0 = a0.addingProduct(x0, wa); a1 = a1.addingProduct(x1, wa); a2 = a2.addingProduct(x2, wa)
                    a0 = a0.addingProduct(x1, wb); a1 = a1.addingProduct(x2, wb)
                    a0 = a0.addingProduct(x2, wc)
                    let x3 = load(r + c3), x4 = load(r + c4)
                    a3 = a3.addingProduct(x3, wa); a4 = a4.addingProduct(x4, wa)
                    a2 = a2.addingProduct(x3, wb); a3 = a3.addingProduct(x4, wb)
                    a1 = a1.addingProduct(x3, wc); a2 = a2.addingProduct(x4, wc)
                    let x5 = load(r + c5), x6 = load(r + c6)
                    a5 = a5.addingProduct(x5, wa); a6 = a6.addingProduct(x6, wa)
                    a4 = a4.addingProduct(x5, wb); a5 = a5.addingProduct(x6, wb)
                    a3 = a3.addingProduct(x5, wc); a4 = a4.addingProduct(x6, wc)
                    let x7 = load(r + c7), x8 = load(r + c8), x9 = load(r + c9)
                    a7 = a7.addingProduct(x7, wa)
                    a6 = a6.addingProduct(x7, wb); a7 = a7.addingProduct(x8, wb)
                    a5 = a5.addingProduct(x7, wc); a6 = a6.addingProduct(x8, wc); a7 = a7.addingProduct(x9, wc)
                    r += rowStride
                    w += 3 * padded
                }
                let element = outBase + ox * channels + c
                epilogue.store(a0, channel: c, lanes: lanes, element: element)
                epilogue.store(a1, channel: c, lanes: lanes, element: element + c1)
                epilogue.store(a2, channel: c, lanes: lanes, element: element + c2)
                epilogue.store(a3, channel: c, lanes: lanes, element: element + c3)
                epilogue.store(a4, channel: c, lanes: lanes, element: element + c4)
                epilogue.store(a5, channel: c, lanes: lanes, element: element + c5)
                epilogue.store(a6, channel: c, lanes: lanes, element: element + c6)
                epilogue.store(a7, channel: c, lanes: lanes, element: element + c7)
                c += 8
            }
            ox += 8
        }
        while ox + 4 <= end {
            var c = 0
            while c < channels {
                let lanes = min(8, channels - c)
                var a0 = SIMD8<Float>.zero, a1 = a0, a2 = a0, a3 = a0
                var r = rowBase + ox * channels + c
                var w = weights + c
                for _ in 0..<3 {
                    let wa = load(w), wb = load(w + padded), wc = load(w + 2 * padded)
                    let x0 = load(r), x1 = load(r + c1), x2 = load(r + c2)
                    let x3 = load(r + c3), x4 = load(r + c4), x5 = load(r + c5)
                    a0 = a0.addingProduct(x0, wa); a1 = a1.addingProduct(x1, wa)
                    a2 = a2.addingProduct(x2, wa); a3 = a3.addingProduct(x3, wa)
                    a0 = a0.addingProduct(x1, wb); a1 = a1.addingProduct(x2, wb)
                    a2 = a2.addingProduct(x3, wb); a3 = a3.addingProduct(x4, wb)
                    a0 = a0.addingProduct(x2, wc); a1 = a1.addingProduct(x3, wc)
                    a2 = a2.addingProduct(x4, wc); a3 = a3.addingProduct(x5, wc)
                    r += rowStride
                    w += 3 * padded
                }
                let element = outBase + ox * channels + c
                epilogue.store(a0, channel: c, lanes: lanes, element: element)
                epilogue.store(a1, channel: c, lanes: lanes, element: element + c1)
                epilogue.store(a2, channel: c, lanes: lanes, element: element + c2)
                epilogue.store(a3, channel: c, lanes: lanes, element: element + c3)
                c += 8
            }
            ox += 4
        }
        while ox < end {
            var c = 0
            while c < channels {
                let lanes = min(8, channels - c)
                var acc = SIMD8<Float>.zero
                var r = rowBase + ox * channels + c
                var w = weights + c
                for _ in 0..<3 {
                    acc = acc.addingProduct(load(r), load(w))
                    acc = acc.addingProduct(load(r + c1), load(w + padded))
                    acc = acc.addingProduct(load(r + c2), load(w + 2 * padded))
                    r += rowStride
                    w += 3 * padded
                }
                epilogue.store(acc, channel: c, lanes: lanes, element: outBase + ox * channels + c)
                c += 8
            }
            ox += 1
        }
    }
}

extension Kernels {
    /// Stride-2 3×3 depthwise, interior columns `start..<end` of one output row,
    /// all channels, channel-inner like the stride-1 row: four pixels span nine
    /// input columns per kernel row (shared edge columns loaded once).
    @inline(never)
    static func depthwise3x3Stride2Row<E: OutputEpilogue>(
        _ g: WindowGeometry, input: UnsafePointer<Float>, weights: UnsafePointer<Float>, padded: Int,
        oy: Int, iy0: Int, start: Int, end: Int, epilogue: E
    ) {
        let channels = g.inChannels
        let rowStride = g.inWidth * channels
        let c1 = channels
        let rowBase = input + (iy0 * g.inWidth - g.padLeft) * channels
        let outBase = oy * g.outWidth * channels
        var ox = start
        while ox + 4 <= end {
            var c = 0
            while c < channels {
                let lanes = min(8, channels - c)
                var a0 = SIMD8<Float>.zero, a1 = a0, a2 = a0, a3 = a0
                var r = rowBase + 2 * ox * channels + c
                var w = weights + c
                for _ in 0..<3 {
                    let wa = load(w), wb = load(w + padded), wc = load(w + 2 * padded)
                    let x0 = load(r), x1 = load(r + c1), x2 = load(r + 2 * c1)
                    a0 = a0.addingProduct(x0, wa); a0 = a0.addingProduct(x1, wb); a0 = a0.addingProduct(x2, wc)
                    let x3 = load(r + 3 * c1), x4 = load(r + 4 * c1)
                    a1 = a1.addingProduct(x2, wa); a1 = a1.addingProduct(x3, wb); a1 = a1.addingProduct(x4, wc)
                    let x5 = load(r + 5 * c1), x6 = load(r + 6 * c1)
                    a2 = a2.addingProduct(x4, wa); a2 = a2.addingProduct(x5, wb); a2 = a2.addingProduct(x6, wc)
                    let x7 = load(r + 7 * c1), x8 = load(r + 8 * c1)
                    a3 = a3.addingProduct(x6, wa); a3 = a3.addingProduct(x7, wb); a3 = a3.addingProduct(x8, wc)
                    r += rowStride
                    w += 3 * padded
                }
                let element = outBase + ox * channels + c
                epilogue.store(a0, channel: c, lanes: lanes, element: element)
                epilogue.store(a1, channel: c, lanes: lanes, element: element + c1)
                epilogue.store(a2, channel: c, lanes: lanes, element: element + 2 * c1)
                epilogue.store(a3, channel: c, lanes: lanes, element: element + 3 * c1)
                c += 8
            }
            ox += 4
        }
        while ox < end {
            var c = 0
            while c < channels {
                let lanes = min(8, channels - c)
                var acc = SIMD8<Float>.zero
                var r = rowBase + 2 * ox * channels + c
                var w = weights + c
                for _ in 0..<3 {
                    acc = acc.addingProduct(load(r), load(w))
                    acc = acc.addingProduct(load(r + c1), load(w + padded))
                    acc = acc.addingProduct(load(r + 2 * c1), load(w + 2 * padded))
                    r += rowStride
                    w += 3 * padded
                }
                epilogue.store(acc, channel: c, lanes: lanes, element: outBase + ox * channels + c)
                c += 8
            }
            ox += 1
        }
    }
}
