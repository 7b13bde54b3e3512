import InferenceWide

extension Kernels {
    /// CONV_2D. Dispatches 1×1 stride-1 convolutions to the register-blocked GEMM micro-kernel.
    static func convolution(_ step: Step.Convolution, arena: UnsafeMutablePointer<Float>, constants: UnsafePointer<Float>) {
        if let wide = step.wideWeights, step.geometry.isPointwise {
            let g = step.geometry, e = step.epilogue
            WidePointwise.run(input: arena + step.input, weights: constants + wide, output: arena + step.output,
                              pixels: g.outHeight * g.outWidth, inChannels: g.inChannels, outChannels: g.outChannels,
                              bias: constants + e.bias, residual: e.residual.map { UnsafePointer(arena + $0) },
                              residualChannels: e.residualChannels ?? g.outChannels,
                              first: e.first.wide(constants), second: e.second.wide(constants))
            return
        }
        struct Run: EpilogueConsumer {
            let step: Step.Convolution, arena: UnsafeMutablePointer<Float>, constants: UnsafePointer<Float>
            func run<E: OutputEpilogue>(_ epilogue: E) {
                if step.geometry.isPointwise {
                    Kernels.pointwise(step, arena: arena, constants: constants, epilogue: epilogue)
                } else {
                    Kernels.windowedConvolution(step, arena: arena, constants: constants, epilogue: epilogue)
                }
            }
        }
        withEpilogue(step.epilogue, output: arena + step.output, arena: arena, constants: constants, Run(step: step, arena: arena, constants: constants))
    }

    /// 1×1 convolution as a GEMM: tiles of 6 pixels × 16 output channels held in
    /// twelve SIMD8 accumulators (an odd last 8-channel block in a 6 × 8 tile;
    /// then 4-pixel and 1-pixel tiles for the rest); weights packed `[O/8][I][8]`.
    static func pointwise<E: OutputEpilogue>(_ step: Step.Convolution, arena: UnsafeMutablePointer<Float>, constants: UnsafePointer<Float>, epilogue: E) {
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

    /// Any kernel size, stride and zero padding; weights packed `[O/8][KH][KW][I][8]`.
    /// For one kernel row the valid taps of a pixel are contiguous in both the
    /// input (`kx·I + i`) and the packed weights, so each row is one dot-product
    /// run. Interior pixels go four at a time (4 pixels × 16 channels in eight
    /// accumulators); border pixels one at a time.
    static func windowedConvolution<E: OutputEpilogue>(_ step: Step.Convolution, arena: UnsafeMutablePointer<Float>, constants: UnsafePointer<Float>, epilogue: E) {
        let g = step.geometry
        let inC = g.inChannels, outC = g.outChannels
        let blocks = (outC + 7) / 8
        let input = UnsafePointer(arena + step.input)
        let weights = constants + step.weights
        let rowRun = g.kernelWidth * inC
        let panel = g.kernelHeight * rowRun * 8
        let pixelStep = g.strideWidth * inC
        // Output columns whose whole kernel row lies inside the input.
        let firstFull = min(g.outWidth, (g.padLeft + g.strideWidth - 1) / g.strideWidth)
        let lastFull = g.inWidth + g.padLeft - g.kernelWidth >= 0 ? min(g.outWidth, (g.inWidth + g.padLeft - g.kernelWidth) / g.strideWidth + 1) : 0

        for oy in 0..<g.outHeight {
            let iy0 = oy * g.strideHeight - g.padTop
            let kyStart = max(0, -iy0), kyEnd = min(g.kernelHeight, g.inHeight - iy0)
            var ox = 0
            while ox < g.outWidth {
                if ox >= firstFull, ox < lastFull, lastFull - firstFull >= 8, blocks != 3, let wide = step.wideWeights {
                    // Eight interior pixels of a 16- or 32-channel layer, the last group overlapping as below.
                    let start = min(ox, lastFull - 8)
                    let ix = start * g.strideWidth - g.padLeft
                    WideWindowedBlocks.eightPixels(outputChannels: outC, rowStart: input + (iy0 * g.inWidth + ix) * inC,
                                                   pixelStep: pixelStep, inRowFloats: g.inWidth * inC, rowRun: rowRun,
                                                   taps: g.kernelHeight * rowRun, kyStart: kyStart, kyEnd: kyEnd,
                                                   weights: constants + wide, bias: constants + step.epilogue.bias,
                                                   activation: step.epilogue.first.wide(constants),
                                                   output: arena + step.output + (oy * g.outWidth + start) * outC)
                    ox = start + 8
                    continue
                }
                if ox >= firstFull, ox < lastFull, lastFull - firstFull >= 8, blocks == 3, let wide = step.wideWeights {
                    // Eight interior pixels; the last eight of the row's interior
                    // overlap pixels already written (the same values again), so
                    // no interior pixel is left to the slower paths below.
                    let start = min(ox, lastFull - 8)
                    let ix = start * g.strideWidth - g.padLeft
                    WideWindowed24.eightPixels(rowStart: input + (iy0 * g.inWidth + ix) * inC, pixelStep: pixelStep,
                                               inRowFloats: g.inWidth * inC, rowRun: rowRun, kyStart: kyStart, kyEnd: kyEnd,
                                               weights: constants + wide, bias: constants + step.epilogue.bias,
                                               activation: step.epilogue.first.wide(constants),
                                               output: arena + step.output + (oy * g.outWidth + start) * outC)
                    ox = start + 8
                    continue
                }
                let element = (oy * g.outWidth + ox) * outC
                let ix0 = ox * g.strideWidth - g.padLeft
                if ox >= firstFull, ox + 4 <= lastFull {
                    // Four interior pixels.
                    if blocks == 3, let wide = step.wideWeights {
                        WideWindowed24.fourPixels(rowStart: input + (iy0 * g.inWidth + ix0) * inC, pixelStep: pixelStep,
                                                  inRowFloats: g.inWidth * inC, rowRun: rowRun, kyStart: kyStart, kyEnd: kyEnd,
                                                  weights: constants + wide, bias: constants + step.epilogue.bias,
                                                  activation: step.epilogue.first.wide(constants), output: arena + step.output + element)
                        ox += 4
                        continue
                    }
                    if blocks == 3 {
                        windowedInteriorThreeBlocks(g, weights: weights,
                                            rowStart: input + (iy0 * g.inWidth + ix0) * inC,
                                            kyStart: kyStart, kyEnd: kyEnd, element: element, epilogue: epilogue)
                        ox += 4
                        continue
                    }
                    var b = 0
                    while b + 1 < blocks {
                        let wa = weights + b * panel
                        let wb = wa + panel
                        var a0 = SIMD8<Float>.zero, a1 = a0, a2 = a0, a3 = a0
                        var b0 = a0, b1 = a0, b2 = a0, b3 = a0
                        for ky in kyStart..<max(kyStart, kyEnd) {
                            let x0 = input + ((iy0 + ky) * g.inWidth + ix0) * inC
                            let x1 = x0 + pixelStep, x2 = x1 + pixelStep, x3 = x2 + pixelStep
                            let wra = wa + ky * rowRun * 8, wrb = wb + ky * rowRun * 8
                            for k in 0..<rowRun {
                                let va = load(wra + k * 8), vb = load(wrb + k * 8)
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
                        // An odd last block (24 channels = 3 blocks): alone, not computed twice.
                        let wa = weights + b * panel
                        var a0 = SIMD8<Float>.zero, a1 = a0, a2 = a0, a3 = a0
                        for ky in kyStart..<max(kyStart, kyEnd) {
                            let x0 = input + ((iy0 + ky) * g.inWidth + ix0) * inC
                            let x1 = x0 + pixelStep, x2 = x1 + pixelStep, x3 = x2 + pixelStep
                            let wra = wa + ky * rowRun * 8
                            for k in 0..<rowRun {
                                let va = load(wra + k * 8)
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
                    ox += 4
                    continue
                }
                // One pixel, clipped to the input.
                let kxStart = max(0, -ix0), kxEnd = min(g.kernelWidth, g.inWidth - ix0)
                let run = max(0, kxEnd - kxStart) * inC
                for b in 0..<blocks {
                    let wa = weights + b * panel
                    var a = SIMD8<Float>.zero
                    for ky in kyStart..<max(kyStart, kyEnd) {
                        let x = input + ((iy0 + ky) * g.inWidth + ix0 + kxStart) * inC
                        let w = wa + (ky * g.kernelWidth + kxStart) * inC * 8
                        for k in 0..<run { a = a.addingProduct(SIMD8(repeating: x[k]), load(w + k * 8)) }
                    }
                    let c = b * 8
                    epilogue.store(a, channel: c, lanes: min(8, outC - c), element: element + c)
                }
                ox += 1
            }
        }
    }

    /// DEPTHWISE_CONV_2D (depth multiplier 1), any kernel size, stride and padding;
    /// weights packed `[KH][KW][roundUp8(C)]`. Per output row and 8-channel block,
    /// sweeps the row; 3×3 windows fully inside the input use nine weight vectors
    /// held in registers.
    static func depthwise(_ step: Step.Depthwise, arena: UnsafeMutablePointer<Float>, constants: UnsafePointer<Float>) {
        if let table = step.wideTable {
            wideDepthwise3x3(step, arena: arena, constants: constants, table: constants + table)
            return
        }
        struct Run: EpilogueConsumer {
            let step: Step.Depthwise, arena: UnsafeMutablePointer<Float>, constants: UnsafePointer<Float>
            func run<E: OutputEpilogue>(_ epilogue: E) {
                Kernels.depthwise(step, arena: arena, constants: constants, epilogue: epilogue)
            }
        }
        withEpilogue(step.epilogue, output: arena + step.output, arena: arena, constants: constants, Run(step: step, arena: arena, constants: constants))
    }

    static func depthwise<E: OutputEpilogue>(_ step: Step.Depthwise, arena: UnsafeMutablePointer<Float>, constants: UnsafePointer<Float>, epilogue: E) {
        let g = step.geometry
        let channels = g.inChannels
        let padded = (channels + 7) / 8 * 8
        let input = UnsafePointer(arena + step.input)
        let weights = constants + step.weights
        let kw = g.kernelWidth, kh = g.kernelHeight
        let sw = g.strideWidth
        let firstFull = min(g.outWidth, (g.padLeft + sw - 1) / sw)
        let lastFull = g.inWidth + g.padLeft - kw >= 0 ? min(g.outWidth, (g.inWidth + g.padLeft - kw) / sw + 1) : 0
        let is3x3 = kw == 3 && kh == 3
        for oy in 0..<g.outHeight {
            let iy0 = oy * g.strideHeight - g.padTop
            let kyStart = max(0, -iy0), kyEnd = min(kh, g.inHeight - iy0)
            let rowsFull = kyStart == 0 && kyEnd == kh
            // Stride-1 and stride-2 3×3 interiors run channel-inner for all blocks at once; the blocks below then skip them.
            let interiorDone = is3x3 && rowsFull && (sw == 1 || sw == 2) && firstFull < lastFull
            if interiorDone {
                if sw == 1 {
                    depthwise3x3Stride1Row(g, input: input, weights: weights, padded: padded, oy: oy, iy0: iy0, start: firstFull, end: lastFull, epilogue: epilogue)
                } else {
                    depthwise3x3Stride2Row(g, input: input, weights: weights, padded: padded, oy: oy, iy0: iy0, start: firstFull, end: lastFull, epilogue: epilogue)
                }
            }
            var c = 0
            while c < channels {
                let lanes = min(8, channels - c)
                let w = weights + c
                var ox = 0
                if is3x3 && rowsFull && firstFull < lastFull {
                    // Border columns on the left first.
                    while ox < firstFull {
                        let acc = depthwisePixel(input, w, g: g, channels: channels, padded: padded, c: c, oy: oy, ox: ox, iy0: iy0, kyStart: kyStart, kyEnd: kyEnd)
                        epilogue.store(acc, channel: c, lanes: lanes, element: (oy * g.outWidth + ox) * channels + c)
                        ox += 1
                    }
                    ox = interiorDone
                        ? lastFull
                        : depthwise3x3Row(g, input: input, weights: w, padded: padded, c: c, lanes: lanes, oy: oy, iy0: iy0, start: ox, end: lastFull, epilogue: epilogue)
                }
                if kw == 5 && kh == 5 && rowsFull && firstFull < lastFull {
                    while ox < firstFull {
                        let acc = depthwisePixel(input, w, g: g, channels: channels, padded: padded, c: c, oy: oy, ox: ox, iy0: iy0, kyStart: kyStart, kyEnd: kyEnd)
                        epilogue.store(acc, channel: c, lanes: lanes, element: (oy * g.outWidth + ox) * channels + c)
                        ox += 1
                    }
                    let rowStride = g.inWidth * channels
                    let pixelStride = sw * channels
                    let c1 = channels, c2 = 2 * channels, c3 = 3 * channels, c4 = 4 * channels
                    // Four pixels per weight load: four independent FMA chains.
                    while ox + 4 <= lastFull {
                        var r = input + (iy0 * g.inWidth + ox * sw - g.padLeft) * channels + c
                        var wr = w
                        var a0 = SIMD8<Float>.zero, a1 = a0, a2 = a0, a3 = a0
                        for _ in 0..<5 {
                            let q1 = r + pixelStride, q2 = q1 + pixelStride, q3 = q2 + pixelStride
                            tap4(&a0, &a1, &a2, &a3, r, q1, q2, q3, load(wr))
                            tap4(&a0, &a1, &a2, &a3, r + c1, q1 + c1, q2 + c1, q3 + c1, load(wr + padded))
                            tap4(&a0, &a1, &a2, &a3, r + c2, q1 + c2, q2 + c2, q3 + c2, load(wr + 2 * padded))
                            tap4(&a0, &a1, &a2, &a3, r + c3, q1 + c3, q2 + c3, q3 + c3, load(wr + 3 * padded))
                            tap4(&a0, &a1, &a2, &a3, r + c4, q1 + c4, q2 + c4, q3 + c4, load(wr + 4 * padded))
                            r += rowStride
                            wr += 5 * padded
                        }
                        let element = (oy * g.outWidth + ox) * channels + c
                        epilogue.store(a0, channel: c, lanes: lanes, element: element)
                        epilogue.store(a1, channel: c, lanes: lanes, element: element + channels)
                        epilogue.store(a2, channel: c, lanes: lanes, element: element + 2 * channels)
                        epilogue.store(a3, channel: c, lanes: lanes, element: element + 3 * channels)
                        ox += 4
                    }
                }
                while ox < g.outWidth {
                    let acc = depthwisePixel(input, w, g: g, channels: channels, padded: padded, c: c, oy: oy, ox: ox, iy0: iy0, kyStart: kyStart, kyEnd: kyEnd)
                    epilogue.store(acc, channel: c, lanes: lanes, element: (oy * g.outWidth + ox) * channels + c)
                    ox += 1
                }
                c += 8
            }
        }
    }

    /// Floats of arena scratch `wideDepthwise3x3` needs: a row of zeros as
    /// long as an input row plus the sweep's read slack, then one 3×3 window.
    static func wideDepthwiseScratch(_ g: WindowGeometry) -> Int {
        (g.inWidth * g.inChannels + 2 * g.inChannels + 32) + (9 * g.inChannels + 32)
    }

    /// Stride-1 3×3 depthwise on 16 lanes (`WideDepthwise3x3`, planned with
    /// `Step.Depthwise.wideTable`): each output row's interior columns in
    /// one flat sweep, kernel rows in the padding read from a row of zeros;
    /// each border pixel from a copy of its 3×3 window with zeros outside the
    /// input. Adding a zero tap leaves a sum unchanged (it is never −0), so
    /// results match the 8-lane kernel, which skips those taps, bit for bit.
    static func wideDepthwise3x3(_ step: Step.Depthwise, arena: UnsafeMutablePointer<Float>, constants: UnsafePointer<Float>,
                                 table: UnsafePointer<Float>) {
        let g = step.geometry
        let channels = g.inChannels
        let input = UnsafePointer(arena + step.input), output = arena + step.output
        let activation = step.epilogue.first.wide(constants)
        let rowFloats = g.inWidth * channels
        let firstFull = min(g.outWidth, g.padLeft)
        let lastFull = max(firstFull, min(g.outWidth, g.inWidth + g.padLeft - 2))
        // A row of zeros as long as an input row (plus the sweep's read slack), then one 3×3 window,
        // in the plan's scratch region (other plans of an interpreter may have left data there).
        let zeroCount = rowFloats + 2 * channels + 32
        do {
            let zeros = arena + step.scratch, window = zeros + zeroCount
            zeros.initialize(repeating: 0, count: wideDepthwiseScratch(g))
            func inputRow(_ iy: Int) -> UnsafePointer<Float> {
                iy >= 0 && iy < g.inHeight ? input + iy * rowFloats : UnsafePointer(zeros)
            }
            /// Border pixels of output row `row`, each from a copy of its window.
            func borderPixels(_ row: Int) {
                let iy0 = row - g.padTop
                let outRow = output + row * g.outWidth * channels
                for ox in 0..<g.outWidth where ox < firstFull || ox >= lastFull {
                    for ky in 0..<3 {
                        let iy = iy0 + ky
                        for kx in 0..<3 {
                            let ix = ox - g.padLeft + kx
                            let target = window + (ky * 3 + kx) * channels
                            if iy >= 0 && iy < g.inHeight && ix >= 0 && ix < g.inWidth {
                                target.update(from: input + iy * rowFloats + ix * channels, count: channels)
                            } else {
                                target.update(repeating: 0, count: channels)
                            }
                        }
                    }
                    WideDepthwise3x3.row(top: window, middle: window + 3 * channels, bottom: window + 6 * channels,
                                         channels: channels, table: table, count: channels, activation: activation,
                                         output: outRow + ox * channels)
                }
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
                        WideDepthwise3x3.fourRows((inputRow(iy0) + start, inputRow(iy0 + 1) + start, inputRow(iy0 + 2) + start,
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
                        WideDepthwise3x3.twoRows(rows, channels: channels, table: table, count: interior, activation: activation,
                                                 outputs: (first, first + g.outWidth * channels))
                    } else {
                        WideDepthwise3x3.row(top: rows.0, middle: rows.1, bottom: rows.2, channels: channels, table: table,
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
