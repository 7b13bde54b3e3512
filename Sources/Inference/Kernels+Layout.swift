extension Kernels {
    static func copy(_ step: Step.Copy, arena: UnsafeMutablePointer<Float>) {
        (arena + step.output).update(from: arena + step.input, count: step.count)
    }

    /// Zero padding of a rank-4 tensor: zero the output, then copy each innermost row.
    /// Padding only after the channels (BlazeFace's skip connections, e.g. 24 → 28)
    /// takes one vectorized pass instead.
    static func pad(_ step: Step.Pad, arena: UnsafeMutablePointer<Float>) {
        let output = arena + step.output, input = arena + step.input
        let (n, h, w, c) = step.inShape
        if step.before == (0, 0, 0, 0), step.outShape.0 == n, step.outShape.1 == h, step.outShape.2 == w, step.outShape.3 >= 8 {
            padChannels(input: input, output: output, pixels: n * h * w, channels: c, paddedChannels: step.outShape.3)
            return
        }
        let (bn, bh, bw, bc) = step.before
        let (_, oh, ow, oc) = step.outShape
        output.update(repeating: 0, count: step.outShape.0 * oh * ow * oc)
        for i0 in 0..<n {
            for i1 in 0..<h {
                for i2 in 0..<w {
                    let source = ((i0 * h + i1) * w + i2) * c
                    let target = (((i0 + bn) * oh + i1 + bh) * ow + i2 + bw) * oc + bc
                    (output + target).update(from: input + source, count: c)
                }
            }
        }
    }

    /// `pixels` rows of `channels` floats into rows of `paddedChannels`, zeros after.
    /// Pixels go in order, so a full 8-lane store that runs into the next
    /// pixel (at most 7 floats, and `paddedChannels ≥ 8`) is overwritten by
    /// it; only the last pixel stores partial vectors.
    /// Loads stay inside the input row plus `readSlack` (only blocks that start
    /// before `channels` are loaded).
    static func padChannels(input: UnsafeMutablePointer<Float>, output: UnsafeMutablePointer<Float>,
                            pixels: Int, channels: Int, paddedChannels: Int) {
        guard pixels > 0 else { return }
        // Keeps the lanes of the last, partial block that hold channels (a bit mask: exact for any value).
        let tail = channels % 8
        let keep = SIMD8<UInt32>(0, 1, 2, 3, 4, 5, 6, 7)
            .replacing(with: 0, where: SIMD8<UInt32>(0, 1, 2, 3, 4, 5, 6, 7) .>= SIMD8(repeating: UInt32(tail)))
            .replacing(with: .max, where: SIMD8<UInt32>(0, 1, 2, 3, 4, 5, 6, 7) .< SIMD8(repeating: UInt32(tail)))
        let lastFull = channels - tail
        func row(_ p: Int, full: Bool) {
            let source = input + p * channels, target = output + p * paddedChannels
            var o = 0
            while o < paddedChannels {
                var v = SIMD8<Float>.zero
                if o < lastFull {
                    v = load(source + o)
                } else if o < channels {
                    v = unsafeBitCast(unsafeBitCast(load(source + o), to: SIMD8<UInt32>.self) & keep, to: SIMD8<Float>.self)
                }
                store(v, target + o, lanes: full ? 8 : min(8, paddedChannels - o))
                o += 8
            }
        }
        for p in 0..<(pixels - 1) { row(p, full: true) }
        row(pixels - 1, full: false)
    }

    static func concatenation(_ step: Step.Concatenation, arena: UnsafeMutablePointer<Float>) {
        var target = arena + step.output
        for outer in 0..<step.outer {
            for (offset, chunk) in step.inputs {
                target.update(from: arena + offset + outer * chunk, count: chunk)
                target += chunk
            }
        }
    }

    /// RESIZE_BILINEAR with TFLite's coordinate rules (align_corners, half_pixel_centers).
    static func resizeBilinear(_ step: Step.ResizeBilinear, arena: UnsafeMutablePointer<Float>) {
        let input = arena + step.input, output = arena + step.output
        let channels = step.channels
        func scale(_ inSize: Int, _ outSize: Int) -> Float {
            step.alignCorners && outSize > 1 ? Float(inSize - 1) / Float(outSize - 1) : Float(inSize) / Float(outSize)
        }
        func source(_ index: Int, _ scale: Float, _ inSize: Int) -> (lower: Int, upper: Int, fraction: Float) {
            let value = step.halfPixelCenters ? (Float(index) + 0.5) * scale - 0.5 : Float(index) * scale
            let floorValue = value.rounded(.down)
            let lower = max(Int(floorValue), 0)
            let upper = min(Int(value.rounded(.up)), inSize - 1)
            return (min(lower, inSize - 1), upper, value - floorValue)
        }
        let sy = scale(step.inHeight, step.outHeight), sx = scale(step.inWidth, step.outWidth)
        for oy in 0..<step.outHeight {
            let (y0, y1, dy) = source(oy, sy, step.inHeight)
            for ox in 0..<step.outWidth {
                let (x0, x1, dx) = source(ox, sx, step.inWidth)
                let p00 = input + (y0 * step.inWidth + x0) * channels, p01 = input + (y0 * step.inWidth + x1) * channels
                let p10 = input + (y1 * step.inWidth + x0) * channels, p11 = input + (y1 * step.inWidth + x1) * channels
                let out = output + (oy * step.outWidth + ox) * channels
                let w00 = SIMD8(repeating: (1 - dy) * (1 - dx)), w01 = SIMD8(repeating: (1 - dy) * dx)
                let w10 = SIMD8(repeating: dy * (1 - dx)), w11 = SIMD8(repeating: dy * dx)
                var c = 0
                while c < channels {
                    let v = load(p00 + c) * w00 + load(p01 + c) * w01 + load(p10 + c) * w10 + load(p11 + c) * w11
                    store(v, out + c, lanes: min(8, channels - c))
                    c += 8
                }
            }
        }
    }

    /// RESIZE_NEAREST_NEIGHBOR with TFLite's coordinate rules: source index
    /// min(floor((dst + o)·scale), in − 1) with o = 0.5 under
    /// half_pixel_centers (else 0) and scale = in/out; with align_corners
    /// the product is rounded instead and scale = (in − 1)/(out − 1).
    static func resizeNearestNeighbor(_ step: Step.ResizeNearestNeighbor, arena: UnsafeMutablePointer<Float>) {
        let input = arena + step.input, output = arena + step.output
        // Bytes (`ActivationGrids`, a multiple of 4 channels) move as floats.
        let channels = step.bytes ? step.channels / 4 : step.channels
        func scale(_ inSize: Int, _ outSize: Int) -> Float {
            step.alignCorners && outSize > 1 ? Float(inSize - 1) / Float(outSize - 1) : Float(inSize) / Float(outSize)
        }
        let offset: Float = step.halfPixelCenters ? 0.5 : 0
        func source(_ index: Int, _ scale: Float, _ inSize: Int) -> Int {
            let value = (Float(index) + offset) * scale
            let rounded = step.alignCorners ? value.rounded(.toNearestOrAwayFromZero) : value.rounded(.down)
            return max(min(Int(rounded), inSize - 1), 0)
        }
        let sy = scale(step.inHeight, step.outHeight), sx = scale(step.inWidth, step.outWidth)
        let rows = step.outputRows ?? 0..<step.outHeight
        for oy in rows {
            let sourceRow = input + (source(oy, sy, step.inHeight) - step.firstInputRow) * step.inWidth * channels
            let target = output + (oy - rows.lowerBound) * step.outWidth * channels
            for ox in 0..<step.outWidth {
                (target + ox * channels).update(from: sourceRow + source(ox, sx, step.inWidth) * channels, count: channels)
            }
        }
    }

    /// DEPTH_TO_SPACE, TensorFlow DCR order: out[b·y+i, b·x+j, c] = in[y, x, (b·i+j)·C + c].
    static func depthToSpace(_ step: Step.DepthToSpace, arena: UnsafeMutablePointer<Float>) {
        let input = arena + step.input, output = arena + step.output
        let b = step.block
        let outC = step.inChannels / (b * b)
        let outW = step.inWidth * b
        for y in 0..<step.inHeight {
            for x in 0..<step.inWidth {
                let source = input + (y * step.inWidth + x) * step.inChannels
                for i in 0..<b {
                    for j in 0..<b {
                        let target = output + ((y * b + i) * outW + x * b + j) * outC
                        target.update(from: source + (i * b + j) * outC, count: outC)
                    }
                }
            }
        }
    }
}
