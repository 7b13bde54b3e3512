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
    /// all channels: per group of eight (then four) pixels, every 8-channel
    /// block in turn (memory is walked in order); returns the first column
    /// it did not compute (the caller does the rest one pixel at a time). Each kernel row's
    /// input vectors are loaded once, in order, and each goes to every pixel
    /// whose window it is in (ten loads for 24 FMAs), so eight accumulators,
    /// three weight vectors and one input vector fit AVX2's sixteen registers.
    /// Every pixel sums its taps in row-major order from zero, as
    /// `depthwisePixel` does.
    ///
    /// Index arithmetic wraps (`&+`, `&*`): the row's bounds were checked by
    /// the caller, and checked arithmetic splits the loop body into blocks
    /// at each overflow branch, where LLVM then computes one accumulator's
    /// nine FMAs after another and spills the loaded vectors.
    @inline(never)
    static func depthwise3x3Stride1Row<E: OutputEpilogue>(
        _ g: WindowGeometry, input: UnsafePointer<Float>, weights: UnsafePointer<Float>, padded: Int,
        oy: Int, iy0: Int, start: Int, end: Int, epilogue: E
    ) -> Int {
        let channels = g.inChannels
        let rowStride = g.inWidth &* channels
        let padded2 = 2 &* padded, padded3 = 3 &* padded
        let rowBase = input + ((iy0 &* g.inWidth &- g.padLeft) &* channels)
        let outBase = oy &* g.outWidth &* channels
        var ox = start
        while ox &+ 8 <= end {
            var c = 0
            while c < channels {
                let lanes = min(8, channels &- c)
                var a0 = SIMD8<Float>.zero, a1 = a0, a2 = a0, a3 = a0, a4 = a0, a5 = a0, a6 = a0, a7 = a0
                var r = rowBase + (ox &* channels &+ c)
                var w = weights + c
                for _ in 0..<3 {
                    let wa = load(w), wb = load(w + padded), wc = load(w + padded2)
                    var q = r
                    var x = load(q)
                    a0 = a0.addingProduct(x, wa)
                    q += channels; x = load(q)
                    a1 = a1.addingProduct(x, wa); a0 = a0.addingProduct(x, wb)
                    q += channels; x = load(q)
                    a2 = a2.addingProduct(x, wa); a1 = a1.addingProduct(x, wb); a0 = a0.addingProduct(x, wc)
                    q += channels; x = load(q)
                    a3 = a3.addingProduct(x, wa); a2 = a2.addingProduct(x, wb); a1 = a1.addingProduct(x, wc)
                    q += channels; x = load(q)
                    a4 = a4.addingProduct(x, wa); a3 = a3.addingProduct(x, wb); a2 = a2.addingProduct(x, wc)
                    q += channels; x = load(q)
                    a5 = a5.addingProduct(x, wa); a4 = a4.addingProduct(x, wb); a3 = a3.addingProduct(x, wc)
                    q += channels; x = load(q)
                    a6 = a6.addingProduct(x, wa); a5 = a5.addingProduct(x, wb); a4 = a4.addingProduct(x, wc)
                    q += channels; x = load(q)
                    a7 = a7.addingProduct(x, wa); a6 = a6.addingProduct(x, wb); a5 = a5.addingProduct(x, wc)
                    q += channels; x = load(q)
                    a7 = a7.addingProduct(x, wb); a6 = a6.addingProduct(x, wc)
                    q += channels; x = load(q)
                    a7 = a7.addingProduct(x, wc)
                    r += rowStride
                    w += padded3
                }
                let element = outBase &+ ox &* channels &+ c
                @inline(__always) func storeEight(_ lanes: Int) {
                    storeFour(a0, a1, a2, a3, epilogue, channel: c, lanes: lanes, element: element, channels: channels)
                    storeFour(a4, a5, a6, a7, epilogue, channel: c, lanes: lanes, element: element &+ 4 &* channels, channels: channels)
                }
                // One branch for all eight (each `storeFour` then folds its own).
                if lanes == 8 { storeEight(8) } else { storeEight(lanes) }
                c &+= 8
            }
            ox &+= 8
        }
        while ox &+ 4 <= end {
            var c = 0
            while c < channels {
                let lanes = min(8, channels &- c)
                var a0 = SIMD8<Float>.zero, a1 = a0, a2 = a0, a3 = a0
                var r = rowBase + (ox &* channels &+ c)
                var w = weights + c
                for _ in 0..<3 {
                    let wa = load(w), wb = load(w + padded), wc = load(w + padded2)
                    var q = r
                    var x = load(q)
                    a0 = a0.addingProduct(x, wa)
                    q += channels; x = load(q)
                    a1 = a1.addingProduct(x, wa); a0 = a0.addingProduct(x, wb)
                    q += channels; x = load(q)
                    a2 = a2.addingProduct(x, wa); a1 = a1.addingProduct(x, wb); a0 = a0.addingProduct(x, wc)
                    q += channels; x = load(q)
                    a3 = a3.addingProduct(x, wa); a2 = a2.addingProduct(x, wb); a1 = a1.addingProduct(x, wc)
                    q += channels; x = load(q)
                    a3 = a3.addingProduct(x, wb); a2 = a2.addingProduct(x, wc)
                    q += channels; x = load(q)
                    a3 = a3.addingProduct(x, wc)
                    r += rowStride
                    w += padded3
                }
                storeFour(a0, a1, a2, a3, epilogue, channel: c, lanes: lanes, element: outBase &+ ox &* channels &+ c, channels: channels)
                c &+= 8
            }
            ox &+= 4
        }
        return ox
    }
}

extension Kernels {
    /// Stride-2 3×3 depthwise, interior columns `start..<end` of one output row,
    /// all channels, channel-inner like the stride-1 row: four pixels span nine
    /// input columns per kernel row (shared edge columns loaded once); returns
    /// the first column it did not compute, like the stride-1 row. Index
    /// arithmetic wraps and a block's stores share one branch, as in the
    /// stride-1 row.
    @inline(never)
    static func depthwise3x3Stride2Row<E: OutputEpilogue>(
        _ g: WindowGeometry, input: UnsafePointer<Float>, weights: UnsafePointer<Float>, padded: Int,
        oy: Int, iy0: Int, start: Int, end: Int, epilogue: E
    ) -> Int {
        let channels = g.inChannels
        let rowStride = g.inWidth &* channels
        let padded2 = 2 &* padded, padded3 = 3 &* padded
        let rowBase = input + ((iy0 &* g.inWidth &- g.padLeft) &* channels)
        let outBase = oy &* g.outWidth &* channels
        var ox = start
        while ox &+ 4 <= end {
            var c = 0
            while c < channels {
                let lanes = min(8, channels &- c)
                var a0 = SIMD8<Float>.zero, a1 = a0, a2 = a0, a3 = a0
                var r = rowBase + (2 &* ox &* channels &+ c)
                var w = weights + c
                for _ in 0..<3 {
                    let wa = load(w), wb = load(w + padded), wc = load(w + padded2)
                    var q = r
                    var x = load(q)
                    a0 = a0.addingProduct(x, wa)
                    q += channels; x = load(q)
                    a0 = a0.addingProduct(x, wb)
                    q += channels; x = load(q)
                    a0 = a0.addingProduct(x, wc); a1 = a1.addingProduct(x, wa)
                    q += channels; x = load(q)
                    a1 = a1.addingProduct(x, wb)
                    q += channels; x = load(q)
                    a1 = a1.addingProduct(x, wc); a2 = a2.addingProduct(x, wa)
                    q += channels; x = load(q)
                    a2 = a2.addingProduct(x, wb)
                    q += channels; x = load(q)
                    a2 = a2.addingProduct(x, wc); a3 = a3.addingProduct(x, wa)
                    q += channels; x = load(q)
                    a3 = a3.addingProduct(x, wb)
                    q += channels; x = load(q)
                    a3 = a3.addingProduct(x, wc)
                    r += rowStride
                    w += padded3
                }
                storeFour(a0, a1, a2, a3, epilogue, channel: c, lanes: lanes, element: outBase &+ ox &* channels &+ c, channels: channels)
                c &+= 8
            }
            ox &+= 4
        }
        return ox
    }
}

extension Kernels {
    /// Four pixels' vectors of one 8-channel block (`channels` apart from
    /// `element`) under one branch: whole vectors, or all partial. A partial
    /// store goes through memory and a call, around which every vector
    /// register would be saved, so the whole-vector path must not contain one.
    @inline(__always)
    static func storeFour<E: OutputEpilogue>(
        _ a0: SIMD8<Float>, _ a1: SIMD8<Float>, _ a2: SIMD8<Float>, _ a3: SIMD8<Float>, _ epilogue: E,
        channel c: Int, lanes: Int, element: Int, channels: Int
    ) {
        @inline(__always) func store(_ lanes: Int) {
            epilogue.store(a0, channel: c, lanes: lanes, element: element)
            epilogue.store(a1, channel: c, lanes: lanes, element: element &+ channels)
            epilogue.store(a2, channel: c, lanes: lanes, element: element &+ 2 &* channels)
            epilogue.store(a3, channel: c, lanes: lanes, element: element &+ 3 &* channels)
        }
        if lanes == 8 { store(8) } else { store(lanes) }
    }

}
