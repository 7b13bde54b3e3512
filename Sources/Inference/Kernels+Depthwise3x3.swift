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
