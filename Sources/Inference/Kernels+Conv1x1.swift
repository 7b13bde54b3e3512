extension Kernels {
    /// `conv1x1_6x16_avx2`: a 1×1 convolution as a GEMM, tiles of 6 pixels × 16
    /// output channels held in twelve SIMD8 accumulators (an odd last 8-channel
    /// block in a 6 × 8 tile; then 4-pixel and 1-pixel tiles for the rest);
    /// weights packed `[ceil(O/8)][I][8]`.
    static func conv1x1AVX2<E: OutputEpilogue>(_ step: Step.Convolution, arena: UnsafeMutablePointer<Float>, constants: UnsafePointer<Float>, epilogue: E) {
        let g = step.geometry
        let inC = g.inChannels, outC = g.outChannels
        let blocks = (outC + 7) / 8
        let pixels = g.outHeight * g.outWidth
        let input = UnsafePointer(arena + step.input)
        let weights = constants + step.weights
        let panel = inC * 8

        var p = 0
        while p + 6 <= pixels {
            let x0 = input + p * inC, x1 = x0 + inC, x2 = x1 + inC, x3 = x2 + inC, x4 = x3 + inC, x5 = x4 + inC
            var b = 0
            while b < blocks {
                let wa = weights + b * panel
                if b + 1 == blocks {
                    // An odd last block (24, 36, 56 … channels) alone: six accumulators, not a duplicate pair.
                    var a0 = SIMD8<Float>.zero, a1 = a0, a2 = a0, a3 = a0, a4 = a0, a5 = a0
                    for i in 0..<inC {
                        let va = load(wa + i * 8)
                        a0 = a0.addingProduct(SIMD8(repeating: x0[i]), va); a1 = a1.addingProduct(SIMD8(repeating: x1[i]), va)
                        a2 = a2.addingProduct(SIMD8(repeating: x2[i]), va); a3 = a3.addingProduct(SIMD8(repeating: x3[i]), va)
                        a4 = a4.addingProduct(SIMD8(repeating: x4[i]), va); a5 = a5.addingProduct(SIMD8(repeating: x5[i]), va)
                    }
                    let c = b * 8, lanes = min(8, outC - c)
                    let e = p * outC + c
                    epilogue.store(a0, channel: c, lanes: lanes, element: e)
                    epilogue.store(a1, channel: c, lanes: lanes, element: e + outC)
                    epilogue.store(a2, channel: c, lanes: lanes, element: e + 2 * outC)
                    epilogue.store(a3, channel: c, lanes: lanes, element: e + 3 * outC)
                    epilogue.store(a4, channel: c, lanes: lanes, element: e + 4 * outC)
                    epilogue.store(a5, channel: c, lanes: lanes, element: e + 5 * outC)
                    break
                }
                let wb = wa + panel
                var a0 = SIMD8<Float>.zero, a1 = a0, a2 = a0, a3 = a0, a4 = a0, a5 = a0
                var b0 = a0, b1 = a0, b2 = a0, b3 = a0, b4 = a0, b5 = a0
                for i in 0..<inC {
                    let va = load(wa + i * 8), vb = load(wb + i * 8)
                    var s = SIMD8(repeating: x0[i])
                    a0 = a0.addingProduct(s, va); b0 = b0.addingProduct(s, vb)
                    s = SIMD8(repeating: x1[i])
                    a1 = a1.addingProduct(s, va); b1 = b1.addingProduct(s, vb)
                    s = SIMD8(repeating: x2[i])
                    a2 = a2.addingProduct(s, va); b2 = b2.addingProduct(s, vb)
                    s = SIMD8(repeating: x3[i])
                    a3 = a3.addingProduct(s, va); b3 = b3.addingProduct(s, vb)
                    s = SIMD8(repeating: x4[i])
                    a4 = a4.addingProduct(s, va); b4 = b4.addingProduct(s, vb)
                    s = SIMD8(repeating: x5[i])
                    a5 = a5.addingProduct(s, va); b5 = b5.addingProduct(s, vb)
                }
                let c = b * 8, lanes = min(8, outC - c)
                let e = p * outC + c
                epilogue.store(a0, channel: c, lanes: lanes, element: e)
                epilogue.store(a1, channel: c, lanes: lanes, element: e + outC)
                epilogue.store(a2, channel: c, lanes: lanes, element: e + 2 * outC)
                epilogue.store(a3, channel: c, lanes: lanes, element: e + 3 * outC)
                epilogue.store(a4, channel: c, lanes: lanes, element: e + 4 * outC)
                epilogue.store(a5, channel: c, lanes: lanes, element: e + 5 * outC)
                do {
                    let lanesB = min(8, outC - c - 8)
                    epilogue.store(b0, channel: c + 8, lanes: lanesB, element: e + 8)
                    epilogue.store(b1, channel: c + 8, lanes: lanesB, element: e + 8 + outC)
                    epilogue.store(b2, channel: c + 8, lanes: lanesB, element: e + 8 + 2 * outC)
                    epilogue.store(b3, channel: c + 8, lanes: lanesB, element: e + 8 + 3 * outC)
                    epilogue.store(b4, channel: c + 8, lanes: lanesB, element: e + 8 + 4 * outC)
                    epilogue.store(b5, channel: c + 8, lanes: lanesB, element: e + 8 + 5 * outC)
                }
                b += 2
            }
            p += 6
        }
        while p + 4 <= pixels {
            let x0 = input + p * inC, x1 = x0 + inC, x2 = x1 + inC, x3 = x2 + inC
            var b = 0
            while b + 2 <= blocks {
                let wa = weights + b * panel, wb = wa + panel
                var a0 = SIMD8<Float>.zero, a1 = a0, a2 = a0, a3 = a0
                var b0 = a0, b1 = a0, b2 = a0, b3 = a0
                for i in 0..<inC {
                    let va = load(wa + i * 8), vb = load(wb + i * 8)
                    let s0 = SIMD8(repeating: x0[i]), s1 = SIMD8(repeating: x1[i])
                    let s2 = SIMD8(repeating: x2[i]), s3 = SIMD8(repeating: x3[i])
                    a0 = a0.addingProduct(s0, va); b0 = b0.addingProduct(s0, vb)
                    a1 = a1.addingProduct(s1, va); b1 = b1.addingProduct(s1, vb)
                    a2 = a2.addingProduct(s2, va); b2 = b2.addingProduct(s2, vb)
                    a3 = a3.addingProduct(s3, va); b3 = b3.addingProduct(s3, vb)
                }
                let c = b * 8, lanesB = min(8, outC - c - 8)
                let e = p * outC + c
                epilogue.store(a0, channel: c, lanes: 8, element: e)
                epilogue.store(a1, channel: c, lanes: 8, element: e + outC)
                epilogue.store(a2, channel: c, lanes: 8, element: e + 2 * outC)
                epilogue.store(a3, channel: c, lanes: 8, element: e + 3 * outC)
                epilogue.store(b0, channel: c + 8, lanes: lanesB, element: e + 8)
                epilogue.store(b1, channel: c + 8, lanes: lanesB, element: e + 8 + outC)
                epilogue.store(b2, channel: c + 8, lanes: lanesB, element: e + 8 + 2 * outC)
                epilogue.store(b3, channel: c + 8, lanes: lanesB, element: e + 8 + 3 * outC)
                b += 2
            }
            if b < blocks {
                let wa = weights + b * panel
                var a0 = SIMD8<Float>.zero, a1 = a0, a2 = a0, a3 = a0
                for i in 0..<inC {
                    let va = load(wa + i * 8)
                    a0 = a0.addingProduct(SIMD8(repeating: x0[i]), va)
                    a1 = a1.addingProduct(SIMD8(repeating: x1[i]), va)
                    a2 = a2.addingProduct(SIMD8(repeating: x2[i]), va)
                    a3 = a3.addingProduct(SIMD8(repeating: x3[i]), va)
                }
                let c = b * 8, lanes = min(8, outC - c)
                let e = p * outC + c
                epilogue.store(a0, channel: c, lanes: lanes, element: e)
                epilogue.store(a1, channel: c, lanes: lanes, element: e + outC)
                epilogue.store(a2, channel: c, lanes: lanes, element: e + 2 * outC)
                epilogue.store(a3, channel: c, lanes: lanes, element: e + 3 * outC)
            }
            p += 4
        }
        while p < pixels {
            let x0 = input + p * inC
            for b in 0..<blocks {
                let wa = weights + b * panel
                var a0 = SIMD8<Float>.zero
                for i in 0..<inC { a0 = a0.addingProduct(SIMD8(repeating: x0[i]), load(wa + i * 8)) }
                let c = b * 8
                epilogue.store(a0, channel: c, lanes: min(8, outC - c), element: p * outC + c)
            }
            p += 1
        }
    }
}
