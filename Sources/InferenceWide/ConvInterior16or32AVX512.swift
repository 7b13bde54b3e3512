/// The interior of `conv_8x16_avx512_interior_avx2_border` and
/// `conv_8x32_avx512_interior_avx2_border`: a windowed (KH×KW, any stride)
/// convolution with 16 or 32 output channels — the first layers of the full-range detector (3×3/2,
/// 3 → 32) and of Face Mesh (3×3/2, 3 → 16) — on 16-lane vectors, eight
/// output pixels per call, each weight vector loaded once for the eight.
/// Each lane sums its taps in the 8-lane kernel's order (kernel rows, then
/// the contiguous run of KW·I taps), from zero, with fused multiply-adds,
/// then adds the bias and applies the activation: results are bit-identical.
///
/// Weights are packed `[O/16][KH·KW·I][16]` (`Conv1x1AVX512.pack` with
/// `KH·KW·I` as the input channels).
public enum ConvInterior16or32AVX512 {
    /// Eight output pixels `pixelStep` floats apart in the input; otherwise
    /// as `ConvInterior24AVX512.eightPixels` (`taps` = KH·KW·I, the packed panel
    /// length). `bias` and PReLU slopes must be readable 16 floats past the
    /// last channel.
    /// Not inlined: it must run as compiled for this target's CPU (AVX-512), not the caller's.
    @inline(never)
    public static func eightPixels(outputChannels: Int, rowStart: UnsafePointer<Float>, pixelStep: Int, inRowFloats: Int,
                                   rowRun: Int, taps: Int, kyStart: Int, kyEnd: Int, weights: UnsafePointer<Float>,
                                   bias: UnsafePointer<Float>, activation: AVX512Activation, output: UnsafeMutablePointer<Float>) {
        switch activation {
        case .none: run(outputChannels, rowStart, pixelStep, inRowFloats, rowRun, taps, kyStart, kyEnd, weights, bias, output, AVX512Identity())
        case .relu: run(outputChannels, rowStart, pixelStep, inRowFloats, rowRun, taps, kyStart, kyEnd, weights, bias, output, AVX512ReLU())
        case .relu6: run(outputChannels, rowStart, pixelStep, inRowFloats, rowRun, taps, kyStart, kyEnd, weights, bias, output, AVX512ReLU6())
        case let .prelu(alpha):
            run(outputChannels, rowStart, pixelStep, inRowFloats, rowRun, taps, kyStart, kyEnd, weights, bias, output, AVX512PReLU(alpha: alpha))
        }
    }

    @inline(__always)
    private static func run<A: AVX512ActivationFunction>(
        _ outC: Int, _ rowStart: UnsafePointer<Float>, _ pixelStep: Int, _ inRowFloats: Int, _ rowRun: Int, _ taps: Int,
        _ kyStart: Int, _ kyEnd: Int, _ weights: UnsafePointer<Float>, _ bias: UnsafePointer<Float>,
        _ output: UnsafeMutablePointer<Float>, _ activation: A
    ) {
        if outC == 16 {
            block(0, rowStart, pixelStep, inRowFloats, rowRun, kyStart, kyEnd, weights, bias, output, outC, activation)
        } else {
            pair(rowStart, pixelStep, inRowFloats, rowRun, taps, kyStart, kyEnd, weights, bias, output, outC, activation)
        }
    }

    /// One 16-channel block (`channel` onwards) for the eight pixels.
    @inline(__always)
    private static func block<A: AVX512ActivationFunction>(
        _ channel: Int, _ rowStart: UnsafePointer<Float>, _ pixelStep: Int, _ inRowFloats: Int, _ rowRun: Int,
        _ kyStart: Int, _ kyEnd: Int, _ weights: UnsafePointer<Float>, _ bias: UnsafePointer<Float>,
        _ output: UnsafeMutablePointer<Float>, _ outC: Int, _ activation: A
    ) {
        var a0 = SIMD16<Float>.zero, a1 = a0, a2 = a0, a3 = a0, a4 = a0, a5 = a0, a6 = a0, a7 = a0
        for ky in kyStart..<max(kyStart, kyEnd) {
            let x0 = rowStart + ky * inRowFloats
            let x1 = x0 + pixelStep, x2 = x1 + pixelStep, x3 = x2 + pixelStep
            let x4 = x3 + pixelStep, x5 = x4 + pixelStep, x6 = x5 + pixelStep, x7 = x6 + pixelStep
            let w = weights + ky * rowRun * 16
            for k in 0..<rowRun {
                let v = AVX512Vector.load(w + k * 16)
                a0 = a0.addingProduct(SIMD16(repeating: x0[k]), v); a1 = a1.addingProduct(SIMD16(repeating: x1[k]), v)
                a2 = a2.addingProduct(SIMD16(repeating: x2[k]), v); a3 = a3.addingProduct(SIMD16(repeating: x3[k]), v)
                a4 = a4.addingProduct(SIMD16(repeating: x4[k]), v); a5 = a5.addingProduct(SIMD16(repeating: x5[k]), v)
                a6 = a6.addingProduct(SIMD16(repeating: x6[k]), v); a7 = a7.addingProduct(SIMD16(repeating: x7[k]), v)
            }
        }
        let b = AVX512Vector.load(bias + channel)
        @inline(__always) func store(_ sum: SIMD16<Float>, _ pixel: Int) {
            AVX512Vector.store(activation(sum + b, channel: channel), output + pixel * outC + channel, lanes: 16)
        }
        store(a0, 0); store(a1, 1); store(a2, 2); store(a3, 3); store(a4, 4); store(a5, 5); store(a6, 6); store(a7, 7)
    }

    /// Both 16-channel blocks of a 32-channel layer for the eight pixels, sharing each broadcast input.
    @inline(__always)
    private static func pair<A: AVX512ActivationFunction>(
        _ rowStart: UnsafePointer<Float>, _ pixelStep: Int, _ inRowFloats: Int, _ rowRun: Int, _ taps: Int,
        _ kyStart: Int, _ kyEnd: Int, _ weights: UnsafePointer<Float>, _ bias: UnsafePointer<Float>,
        _ output: UnsafeMutablePointer<Float>, _ outC: Int, _ activation: A
    ) {
        var a0 = SIMD16<Float>.zero, a1 = a0, a2 = a0, a3 = a0, a4 = a0, a5 = a0, a6 = a0, a7 = a0
        var b0 = a0, b1 = a0, b2 = a0, b3 = a0, b4 = a0, b5 = a0, b6 = a0, b7 = a0
        for ky in kyStart..<max(kyStart, kyEnd) {
            let x0 = rowStart + ky * inRowFloats
            let x1 = x0 + pixelStep, x2 = x1 + pixelStep, x3 = x2 + pixelStep
            let x4 = x3 + pixelStep, x5 = x4 + pixelStep, x6 = x5 + pixelStep, x7 = x6 + pixelStep
            let wa = weights + ky * rowRun * 16, wb = wa + taps * 16
            for k in 0..<rowRun {
                let va = AVX512Vector.load(wa + k * 16), vb = AVX512Vector.load(wb + k * 16)
                var s = SIMD16(repeating: x0[k])
                a0 = a0.addingProduct(s, va); b0 = b0.addingProduct(s, vb)
                s = SIMD16(repeating: x1[k])
                a1 = a1.addingProduct(s, va); b1 = b1.addingProduct(s, vb)
                s = SIMD16(repeating: x2[k])
                a2 = a2.addingProduct(s, va); b2 = b2.addingProduct(s, vb)
                s = SIMD16(repeating: x3[k])
                a3 = a3.addingProduct(s, va); b3 = b3.addingProduct(s, vb)
                s = SIMD16(repeating: x4[k])
                a4 = a4.addingProduct(s, va); b4 = b4.addingProduct(s, vb)
                s = SIMD16(repeating: x5[k])
                a5 = a5.addingProduct(s, va); b5 = b5.addingProduct(s, vb)
                s = SIMD16(repeating: x6[k])
                a6 = a6.addingProduct(s, va); b6 = b6.addingProduct(s, vb)
                s = SIMD16(repeating: x7[k])
                a7 = a7.addingProduct(s, va); b7 = b7.addingProduct(s, vb)
            }
        }
        let low = AVX512Vector.load(bias), high = AVX512Vector.load(bias + 16)
        @inline(__always) func store(_ first: SIMD16<Float>, _ second: SIMD16<Float>, _ pixel: Int) {
            AVX512Vector.store(activation(first + low, channel: 0), output + pixel * outC, lanes: 16)
            AVX512Vector.store(activation(second + high, channel: 16), output + pixel * outC + 16, lanes: 16)
        }
        store(a0, b0, 0); store(a1, b1, 1); store(a2, b2, 2); store(a3, b3, 3)
        store(a4, b4, 4); store(a5, b5, 5); store(a6, b6, 6); store(a7, b7, 7)
    }
}
