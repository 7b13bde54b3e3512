import InferenceWide

extension Kernels {
    /// MAX_POOL_2D over the taps inside the input (padding never wins).
    /// The 8-lane kernel stores output vectors whole (8 lanes) except at the
    /// very end of the tensor: pixels go in order, so lanes past a pixel's
    /// channels land in the next pixel's slots and are overwritten when it is
    /// computed (a partial store per pixel would go through memory).
    /// With `wholeWindowRows` (`maxpool2x2s2_1px_avx512`) it sweeps the whole
    /// windows of a row (`MaxPool2x2s2AVX512`, exact stores) after the pixels
    /// left of them and before those right of them, so every spill is still
    /// overwritten.
    static func maxPool(_ step: Step.MaxPool, arena: UnsafeMutablePointer<Float>, wholeWindowRows wide: Bool) {
        let g = step.geometry
        let channels = g.inChannels
        let input = UnsafePointer(arena + step.input)
        let output = arena + step.output
        let total = g.outHeight * g.outWidth * channels
        @inline(__always) func put(_ value: SIMD8<Float>, _ element: Int, _ c: Int) {
            store(value, output + element, lanes: element + 8 <= total ? 8 : min(8, channels - c))
        }
        let rowStride = g.inWidth * channels
        // For `wholeWindowRows`: the output columns whose windows lie inside the input's columns.
        let firstWhole = wide ? min(g.outWidth, (g.padLeft + 1) / 2) : 0
        let endWhole = wide ? max(firstWhole, min(g.outWidth, (g.inWidth + g.padLeft - 2) / 2 + 1)) : 0
        for oy in 0..<g.outHeight {
            let iy0 = oy * g.strideHeight - g.padTop
            let kyStart = max(0, -iy0), kyEnd = min(g.kernelHeight, g.inHeight - iy0)
            func pixel(_ ox: Int) {
                let ix0 = ox * g.strideWidth - g.padLeft
                let kxStart = max(0, -ix0), kxEnd = min(g.kernelWidth, g.inWidth - ix0)
                let element = (oy * g.outWidth + ox) * channels
                if kyStart == 0, kyEnd == 2, kxStart == 0, kxEnd == 2, g.kernelHeight == 2, g.kernelWidth == 2 {
                    // A whole 2×2 window.
                    let p0 = input + (iy0 * g.inWidth + ix0) * channels, p1 = p0 + rowStride
                    var c = 0
                    while c < channels {
                        let top = maximum(load(p0 + c), load(p0 + channels + c))
                        let bottom = maximum(load(p1 + c), load(p1 + channels + c))
                        put(maximum(top, bottom), element + c, c)
                        c += 8
                    }
                    return
                }
                var c = 0
                while c < channels {
                    var best = SIMD8<Float>(repeating: -.infinity)
                    for ky in kyStart..<max(kyStart, kyEnd) {
                        for kx in kxStart..<max(kxStart, kxEnd) {
                            best = maximum(best, load(input + ((iy0 + ky) * g.inWidth + ix0 + kx) * channels + c))
                        }
                    }
                    put(best, element + c, c)
                    c += 8
                }
            }
            guard wide && kyStart == 0 && kyEnd == 2 && firstWhole < endWhole else {
                for ox in 0..<g.outWidth { pixel(ox) }
                continue
            }
            for ox in 0..<firstWhole { pixel(ox) }
            let top = input + (iy0 * g.inWidth + firstWhole * 2 - g.padLeft) * channels
            MaxPool2x2s2AVX512.row(top: top, bottom: top + rowStride, channels: channels, pixels: endWhole - firstWhole,
                                   output: output + (oy * g.outWidth + firstWhole) * channels)
            for ox in endWhole..<g.outWidth { pixel(ox) }
        }
    }

    /// ADD of two same-shaped tensors with a fused activation.
    static func add(_ step: Step.Binary, arena: UnsafeMutablePointer<Float>, constants: UnsafePointer<Float>) {
        let lhs = arena + step.lhs, rhs = arena + step.rhs, output = arena + step.output
        let channels = step.channels
        let pixels = step.count / channels
        for p in 0..<pixels {
            var c = 0
            while c < channels {
                let e = p * channels + c
                let v = activate(load(lhs + e) + load(rhs + e), step.activation, channel: c, constants: constants)
                store(v, output + e, lanes: min(8, channels - c))
                c += 8
            }
        }
    }

    /// RELU, RELU6 or PRELU on its own.
    static func activation(_ step: Step.Unary, arena: UnsafeMutablePointer<Float>, constants: UnsafePointer<Float>) {
        let input = arena + step.input, output = arena + step.output
        let channels = step.channels
        let pixels = step.count / channels
        for p in 0..<pixels {
            var c = 0
            while c < channels {
                let e = p * channels + c
                store(activate(load(input + e), step.activation, channel: c, constants: constants), output + e, lanes: min(8, channels - c))
                c += 8
            }
        }
    }
}
