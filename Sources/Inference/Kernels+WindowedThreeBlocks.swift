extension Kernels {
    /// Four interior output pixels × three 8-channel blocks (24 output channels,
    /// the short-range detector's first layer) of a windowed convolution: twelve
    /// accumulators share each input broadcast, where the two-block tile plus a
    /// lone third block loaded every input value twice. Weights packed
    /// `[3][KH][KW][I][8]`; `x0` is the first pixel's top-left input, `ky` runs
    /// over the kernel rows inside the input.
    @inline(__always)
    static func windowedInteriorThreeBlocks<E: OutputEpilogue>(
        _ g: WindowGeometry, weights: UnsafePointer<Float>,
        rowStart: UnsafePointer<Float>, kyStart: Int, kyEnd: Int, element: Int, epilogue: E
    ) {
        let inC = g.inChannels, outC = g.outChannels
        let rowRun = g.kernelWidth * inC
        let panel = g.kernelHeight * rowRun * 8
        let pixelStep = g.strideWidth * inC
        var a0 = SIMD8<Float>.zero, a1 = a0, a2 = a0, a3 = a0
        var b0 = a0, b1 = a0, b2 = a0, b3 = a0
        var c0 = a0, c1 = a0, c2 = a0, c3 = a0
        for ky in kyStart..<max(kyStart, kyEnd) {
            let x0 = rowStart + ky * g.inWidth * inC
            let x1 = x0 + pixelStep, x2 = x1 + pixelStep, x3 = x2 + pixelStep
            let wa = weights + ky * rowRun * 8, wb = wa + panel, wc = wb + panel
            for k in 0..<rowRun {
                let va = load(wa + k * 8), vb = load(wb + k * 8), vc = load(wc + k * 8)
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
