/// The `conv1x1_8x32_avx512` micro-kernel: 1×1 convolutions (GEMMs over
/// pixels) with 16-lane vectors. This target is compiled for
/// skylake-avx512, so `Inference` plans it only in `KernelSet.avx512`.
///
/// Tiles of 8 pixels × 32 output channels in sixteen zmm accumulators (32
/// registers exist); an odd last 16-channel block in an 8 × 16 tile; when
/// the last block has at most 8 channels, the last two in an 8 × (16 + 8)
/// tile; leftover pixels one at a time. Per input channel a tile loads two weight vectors and
/// broadcasts eight inputs for sixteen FMAs, so the FMA units are the limit.
/// Weights are packed `[ceil(O/16)][I][16]`, zero past O.
public enum Conv1x1AVX512 {
    /// Floats of the packed weights for `inChannels` → `outChannels`.
    public static func packedCount(inChannels: Int, outChannels: Int) -> Int {
        (outChannels + 15) / 16 * inChannels * 16
    }

    /// `[O][I]` → `[ceil(O/16)][I][16]`, zero beyond O.
    public static func pack(_ weights: [Float], inChannels: Int, outChannels: Int) -> [Float] {
        var packed = [Float](repeating: 0, count: packedCount(inChannels: inChannels, outChannels: outChannels))
        for o in 0..<outChannels {
            let block = o / 16, lane = o % 16
            for i in 0..<inChannels {
                packed[(block * inChannels + i) * 16 + lane] = weights[o * inChannels + i]
            }
        }
        return packed
    }

    /// `output[p][o] = second(first(Σ_i input[p][i]·w[o][i] + bias[o]) + residual[p][o])`.
    /// `bias` (and PReLU slopes) must be readable 16 floats past `outChannels`,
    /// `input` and `residual` 16 floats past their ends.
    public static func run(
        input: UnsafePointer<Float>, weights: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>,
        pixels: Int, inChannels: Int, outChannels: Int, bias: UnsafePointer<Float>,
        residual: UnsafePointer<Float>?, residualChannels: Int, first: AVX512Activation, second: AVX512Activation
    ) {
        struct Run: AVX512EpilogueConsumer {
            let input: UnsafePointer<Float>, weights: UnsafePointer<Float>
            let pixels: Int, inChannels: Int, outChannels: Int
            func run<E: AVX512OutputEpilogue>(_ epilogue: E) {
                Conv1x1AVX512.gemm(input: input, weights: weights, pixels: pixels, inC: inChannels, outC: outChannels, epilogue: epilogue)
            }
        }
        AVX512Activation.withEpilogue(first: first, second: second, bias: bias, residual: residual,
                                    residualChannels: residualChannels, outputChannels: outChannels, output: output,
                                    Run(input: input, weights: weights, pixels: pixels, inChannels: inChannels, outChannels: outChannels))
    }

    static func gemm<E: AVX512OutputEpilogue>(input: UnsafePointer<Float>, weights: UnsafePointer<Float>,
                                            pixels: Int, inC: Int, outC: Int, epilogue: E) {
        let blocks = (outC + 15) / 16
        let panel = inC * 16
        // With a last block of at most 8 channels, the last two blocks go
        // in 16 + 8-lane accumulators: where a 16-lane FMA costs two 8-lane
        // ones (AMD Zen 4) that is a quarter fewer FMA cycles for them.
        let narrowTail = outC % 16 != 0 && outC % 16 <= 8 && blocks >= 2
        let frontBlocks = narrowTail ? blocks - 2 : blocks
        var p = 0
        while p + 8 <= pixels {
            let x0 = input + p * inC, x1 = x0 + inC, x2 = x1 + inC, x3 = x2 + inC
            let x4 = x3 + inC, x5 = x4 + inC, x6 = x5 + inC, x7 = x6 + inC
            var b = 0
            while b + 2 <= frontBlocks {
                let wa = weights + b * panel, wb = wa + panel
                var a0 = SIMD16<Float>.zero, a1 = a0, a2 = a0, a3 = a0, a4 = a0, a5 = a0, a6 = a0, a7 = a0
                var b0 = a0, b1 = a0, b2 = a0, b3 = a0, b4 = a0, b5 = a0, b6 = a0, b7 = a0
                for i in 0..<inC {
                    let va = AVX512Vector.load(wa + i * 16), vb = AVX512Vector.load(wb + i * 16)
                    var s = SIMD16(repeating: x0[i])
                    a0 = a0.addingProduct(s, va); b0 = b0.addingProduct(s, vb)
                    s = SIMD16(repeating: x1[i])
                    a1 = a1.addingProduct(s, va); b1 = b1.addingProduct(s, vb)
                    s = SIMD16(repeating: x2[i])
                    a2 = a2.addingProduct(s, va); b2 = b2.addingProduct(s, vb)
                    s = SIMD16(repeating: x3[i])
                    a3 = a3.addingProduct(s, va); b3 = b3.addingProduct(s, vb)
                    s = SIMD16(repeating: x4[i])
                    a4 = a4.addingProduct(s, va); b4 = b4.addingProduct(s, vb)
                    s = SIMD16(repeating: x5[i])
                    a5 = a5.addingProduct(s, va); b5 = b5.addingProduct(s, vb)
                    s = SIMD16(repeating: x6[i])
                    a6 = a6.addingProduct(s, va); b6 = b6.addingProduct(s, vb)
                    s = SIMD16(repeating: x7[i])
                    a7 = a7.addingProduct(s, va); b7 = b7.addingProduct(s, vb)
                }
                let c = b * 16, e = p * outC + c
                let lanesB = min(16, outC - c - 16)
                epilogue.store(a0, channel: c, lanes: 16, element: e, pixel: p)
                epilogue.store(b0, channel: c + 16, lanes: lanesB, element: e + 16, pixel: p)
                epilogue.store(a1, channel: c, lanes: 16, element: e + outC, pixel: p + 1)
                epilogue.store(b1, channel: c + 16, lanes: lanesB, element: e + outC + 16, pixel: p + 1)
                epilogue.store(a2, channel: c, lanes: 16, element: e + 2 * outC, pixel: p + 2)
                epilogue.store(b2, channel: c + 16, lanes: lanesB, element: e + 2 * outC + 16, pixel: p + 2)
                epilogue.store(a3, channel: c, lanes: 16, element: e + 3 * outC, pixel: p + 3)
                epilogue.store(b3, channel: c + 16, lanes: lanesB, element: e + 3 * outC + 16, pixel: p + 3)
                epilogue.store(a4, channel: c, lanes: 16, element: e + 4 * outC, pixel: p + 4)
                epilogue.store(b4, channel: c + 16, lanes: lanesB, element: e + 4 * outC + 16, pixel: p + 4)
                epilogue.store(a5, channel: c, lanes: 16, element: e + 5 * outC, pixel: p + 5)
                epilogue.store(b5, channel: c + 16, lanes: lanesB, element: e + 5 * outC + 16, pixel: p + 5)
                epilogue.store(a6, channel: c, lanes: 16, element: e + 6 * outC, pixel: p + 6)
                epilogue.store(b6, channel: c + 16, lanes: lanesB, element: e + 6 * outC + 16, pixel: p + 6)
                epilogue.store(a7, channel: c, lanes: 16, element: e + 7 * outC, pixel: p + 7)
                epilogue.store(b7, channel: c + 16, lanes: lanesB, element: e + 7 * outC + 16, pixel: p + 7)
                b += 2
            }
            if b < frontBlocks {
                let wa = weights + b * panel
                var a0 = SIMD16<Float>.zero, a1 = a0, a2 = a0, a3 = a0, a4 = a0, a5 = a0, a6 = a0, a7 = a0
                for i in 0..<inC {
                    let va = AVX512Vector.load(wa + i * 16)
                    a0 = a0.addingProduct(SIMD16(repeating: x0[i]), va); a1 = a1.addingProduct(SIMD16(repeating: x1[i]), va)
                    a2 = a2.addingProduct(SIMD16(repeating: x2[i]), va); a3 = a3.addingProduct(SIMD16(repeating: x3[i]), va)
                    a4 = a4.addingProduct(SIMD16(repeating: x4[i]), va); a5 = a5.addingProduct(SIMD16(repeating: x5[i]), va)
                    a6 = a6.addingProduct(SIMD16(repeating: x6[i]), va); a7 = a7.addingProduct(SIMD16(repeating: x7[i]), va)
                }
                let c = b * 16, e = p * outC + c, lanes = min(16, outC - c)
                epilogue.store(a0, channel: c, lanes: lanes, element: e, pixel: p)
                epilogue.store(a1, channel: c, lanes: lanes, element: e + outC, pixel: p + 1)
                epilogue.store(a2, channel: c, lanes: lanes, element: e + 2 * outC, pixel: p + 2)
                epilogue.store(a3, channel: c, lanes: lanes, element: e + 3 * outC, pixel: p + 3)
                epilogue.store(a4, channel: c, lanes: lanes, element: e + 4 * outC, pixel: p + 4)
                epilogue.store(a5, channel: c, lanes: lanes, element: e + 5 * outC, pixel: p + 5)
                epilogue.store(a6, channel: c, lanes: lanes, element: e + 6 * outC, pixel: p + 6)
                epilogue.store(a7, channel: c, lanes: lanes, element: e + 7 * outC, pixel: p + 7)
                b += 1
            }
            if narrowTail {
                tileWithNarrowTail(x0, inC: inC, weights: weights + b * panel, panel: panel, pixel: p, channel: b * 16,
                                   outC: outC, epilogue: epilogue)
            }
            p += 8
        }
        while p < pixels {
            let x0 = input + p * inC
            for b in 0..<blocks {
                let wa = weights + b * panel
                var a0 = SIMD16<Float>.zero
                for i in 0..<inC { a0 = a0.addingProduct(SIMD16(repeating: x0[i]), AVX512Vector.load(wa + i * 16)) }
                let c = b * 16
                epilogue.store(a0, channel: c, lanes: min(16, outC - c), element: p * outC + c, pixel: p)
            }
            p += 1
        }
    }

    /// 8 pixels × (16 + at most 8) channels: the last two blocks, sharing
    /// each broadcast input.
    @inline(__always)
    static func tileWithNarrowTail<E: AVX512OutputEpilogue>(_ x0: UnsafePointer<Float>, inC: Int, weights wa: UnsafePointer<Float>,
                                                          panel: Int, pixel p: Int, channel c: Int, outC: Int, epilogue: E) {
        let wb = wa + panel
        let x1 = x0 + inC, x2 = x1 + inC, x3 = x2 + inC, x4 = x3 + inC, x5 = x4 + inC, x6 = x5 + inC, x7 = x6 + inC
        var a0 = SIMD16<Float>.zero, a1 = a0, a2 = a0, a3 = a0, a4 = a0, a5 = a0, a6 = a0, a7 = a0
        var t0 = SIMD8<Float>.zero, t1 = t0, t2 = t0, t3 = t0, t4 = t0, t5 = t0, t6 = t0, t7 = t0
        for i in 0..<inC {
            let va = AVX512Vector.load(wa + i * 16), vb = UnsafeRawPointer(wb + i * 16).loadUnaligned(as: SIMD8<Float>.self)
            var v = x0[i]
            a0 = a0.addingProduct(SIMD16(repeating: v), va); t0 = t0.addingProduct(SIMD8(repeating: v), vb)
            v = x1[i]
            a1 = a1.addingProduct(SIMD16(repeating: v), va); t1 = t1.addingProduct(SIMD8(repeating: v), vb)
            v = x2[i]
            a2 = a2.addingProduct(SIMD16(repeating: v), va); t2 = t2.addingProduct(SIMD8(repeating: v), vb)
            v = x3[i]
            a3 = a3.addingProduct(SIMD16(repeating: v), va); t3 = t3.addingProduct(SIMD8(repeating: v), vb)
            v = x4[i]
            a4 = a4.addingProduct(SIMD16(repeating: v), va); t4 = t4.addingProduct(SIMD8(repeating: v), vb)
            v = x5[i]
            a5 = a5.addingProduct(SIMD16(repeating: v), va); t5 = t5.addingProduct(SIMD8(repeating: v), vb)
            v = x6[i]
            a6 = a6.addingProduct(SIMD16(repeating: v), va); t6 = t6.addingProduct(SIMD8(repeating: v), vb)
            v = x7[i]
            a7 = a7.addingProduct(SIMD16(repeating: v), va); t7 = t7.addingProduct(SIMD8(repeating: v), vb)
        }
        let lanes = outC - c - 16
        /// Pixel `p + k`: its 16 channels from `c`, then its narrow tail.
        @inline(__always) func store(_ head: SIMD16<Float>, _ tail: SIMD8<Float>, _ k: Int) {
            let e = (p + k) * outC + c
            epilogue.store(head, channel: c, lanes: 16, element: e, pixel: p + k)
            epilogue.store(SIMD16(lowHalf: tail, highHalf: .zero), channel: c + 16, lanes: lanes, element: e + 16, pixel: p + k)
        }
        store(a0, t0, 0); store(a1, t1, 1); store(a2, t2, 2); store(a3, t3, 3)
        store(a4, t4, 4); store(a5, t5, 5); store(a6, t6, 6); store(a7, t7, 7)
    }
}
