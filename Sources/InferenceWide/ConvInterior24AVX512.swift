/// The interior of `conv_8x24_avx512_interior_avx2_border`: a windowed
/// (KH×KW, any stride) convolution with 24 output channels — the short-range detector's 5×5/2 first layer — on 16-lane
/// vectors. Two pixels' 48 outputs fill three vectors exactly: pixel 0's
/// channels 0–15, channels 16–23 of both pixels, pixel 1's channels 0–15.
/// So every FMA uses all 16 lanes, where the 8-lane kernel needs three FMAs
/// per pixel and tap. Each lane sums its taps in the same order as the
/// 8-lane kernel, so results are bit-identical.
///
/// Weights are packed `[KH][KW][I][32]`: channels 0–15, then 16–23 twice.
public enum ConvInterior24AVX512 {
    public static let outputChannels = 24

    public static func packedCount(taps: Int) -> Int { taps * 32 }

    /// Packs TFLite's `[24][KH][KW][I]` filter (`taps` = KH·KW·I floats per channel).
    public static func pack(_ values: [Float], taps: Int) -> [Float] {
        precondition(values.count == outputChannels * taps, "ConvInterior24AVX512.pack: \(values.count) weights for \(taps) taps")
        var packed = [Float](repeating: 0, count: packedCount(taps: taps))
        for tap in 0..<taps {
            for channel in 0..<16 { packed[tap * 32 + channel] = values[channel * taps + tap] }
            for channel in 16..<24 {
                packed[tap * 32 + channel] = values[channel * taps + tap]
                packed[tap * 32 + channel + 8] = values[channel * taps + tap]
            }
        }
        return packed
    }

    /// Four output pixels `stride·inChannels` floats apart in the input.
    /// `rowStart` is the first pixel's top-left input for kernel row 0;
    /// kernel rows `kyStart..<kyEnd` lie inside the input (rows `inRowFloats`
    /// apart), each a contiguous run of `rowRun` = KW·I floats. Writes
    /// `activation(sum + bias)` for the four pixels from `output` on
    /// (24 floats each). `bias` and PReLU slopes are readable 8 floats past channel 23.
    /// Not inlined: it must run as compiled for this target's CPU (AVX-512), not the caller's.
    @inline(never)
    public static func fourPixels(rowStart: UnsafePointer<Float>, pixelStep: Int, inRowFloats: Int, rowRun: Int,
                                  kyStart: Int, kyEnd: Int, weights: UnsafePointer<Float>,
                                  bias: UnsafePointer<Float>, activation: AVX512Activation, output: UnsafeMutablePointer<Float>) {
        var a0 = SIMD16<Float>.zero, m0 = a0, b0 = a0
        var a1 = a0, m1 = a0, b1 = a0
        for ky in kyStart..<max(kyStart, kyEnd) {
            let x0 = rowStart + ky * inRowFloats
            let x1 = x0 + pixelStep, x2 = x1 + pixelStep, x3 = x2 + pixelStep
            let w = weights + ky * rowRun * 32
            for k in 0..<rowRun {
                let low = AVX512Vector.load(w + k * 32), high = AVX512Vector.load(w + k * 32 + 16)
                let v0 = x0[k], v1 = x1[k], v2 = x2[k], v3 = x3[k]
                a0 = a0.addingProduct(SIMD16(repeating: v0), low)
                m0 = m0.addingProduct(SIMD16(lowHalf: SIMD8(repeating: v0), highHalf: SIMD8(repeating: v1)), high)
                b0 = b0.addingProduct(SIMD16(repeating: v1), low)
                a1 = a1.addingProduct(SIMD16(repeating: v2), low)
                m1 = m1.addingProduct(SIMD16(lowHalf: SIMD8(repeating: v2), highHalf: SIMD8(repeating: v3)), high)
                b1 = b1.addingProduct(SIMD16(repeating: v3), low)
            }
        }
        storeFour(a0, m0, b0, a1, m1, b1, bias: bias, activation: activation, output: output)
    }

    /// Eight output pixels, otherwise as `fourPixels`: each pixel's channels
    /// 0–15 in a 16-lane and 16–23 in an 8-lane accumulator. Where a 16-lane
    /// FMA costs two 8-lane ones (AMD Zen 4) this is as few FMA cycles as the
    /// paired layout, with no lane shuffles in the loop and each weight
    /// vector loaded once per eight pixels. The same sums, bit for bit.
    @inline(never)
    public static func eightPixels(rowStart: UnsafePointer<Float>, pixelStep: Int, inRowFloats: Int, rowRun: Int,
                                   kyStart: Int, kyEnd: Int, weights: UnsafePointer<Float>,
                                   bias: UnsafePointer<Float>, activation: AVX512Activation, output: UnsafeMutablePointer<Float>) {
        var a0 = SIMD16<Float>.zero, a1 = a0, a2 = a0, a3 = a0, a4 = a0, a5 = a0, a6 = a0, a7 = a0
        var t0 = SIMD8<Float>.zero, t1 = t0, t2 = t0, t3 = t0, t4 = t0, t5 = t0, t6 = t0, t7 = t0
        for ky in kyStart..<max(kyStart, kyEnd) {
            let x0 = rowStart + ky * inRowFloats
            let x1 = x0 + pixelStep, x2 = x1 + pixelStep, x3 = x2 + pixelStep
            let x4 = x3 + pixelStep, x5 = x4 + pixelStep, x6 = x5 + pixelStep, x7 = x6 + pixelStep
            let w = weights + ky * rowRun * 32
            for k in 0..<rowRun {
                let low = AVX512Vector.load(w + k * 32)
                let tail = UnsafeRawPointer(w + k * 32 + 16).loadUnaligned(as: SIMD8<Float>.self)
                var v = x0[k]
                a0 = a0.addingProduct(SIMD16(repeating: v), low); t0 = t0.addingProduct(SIMD8(repeating: v), tail)
                v = x1[k]
                a1 = a1.addingProduct(SIMD16(repeating: v), low); t1 = t1.addingProduct(SIMD8(repeating: v), tail)
                v = x2[k]
                a2 = a2.addingProduct(SIMD16(repeating: v), low); t2 = t2.addingProduct(SIMD8(repeating: v), tail)
                v = x3[k]
                a3 = a3.addingProduct(SIMD16(repeating: v), low); t3 = t3.addingProduct(SIMD8(repeating: v), tail)
                v = x4[k]
                a4 = a4.addingProduct(SIMD16(repeating: v), low); t4 = t4.addingProduct(SIMD8(repeating: v), tail)
                v = x5[k]
                a5 = a5.addingProduct(SIMD16(repeating: v), low); t5 = t5.addingProduct(SIMD8(repeating: v), tail)
                v = x6[k]
                a6 = a6.addingProduct(SIMD16(repeating: v), low); t6 = t6.addingProduct(SIMD8(repeating: v), tail)
                v = x7[k]
                a7 = a7.addingProduct(SIMD16(repeating: v), low); t7 = t7.addingProduct(SIMD8(repeating: v), tail)
            }
        }
        storeFour(a0, SIMD16(lowHalf: t0, highHalf: t1), a1, a2, SIMD16(lowHalf: t2, highHalf: t3), a3,
                  bias: bias, activation: activation, output: output)
        storeFour(a4, SIMD16(lowHalf: t4, highHalf: t5), a5, a6, SIMD16(lowHalf: t6, highHalf: t7), a7,
                  bias: bias, activation: activation, output: output + 4 * outputChannels)
    }

    /// Adds the bias, applies the activation and stores four pixels held as
    /// two pairs (see `storePair`).
    @inline(__always)
    static func storeFour(_ a0: SIMD16<Float>, _ m0: SIMD16<Float>, _ b0: SIMD16<Float>,
                          _ a1: SIMD16<Float>, _ m1: SIMD16<Float>, _ b1: SIMD16<Float>,
                          bias: UnsafePointer<Float>, activation: AVX512Activation, output: UnsafeMutablePointer<Float>) {
        let lowBias = AVX512Vector.load(bias)
        let tail = UnsafeRawPointer(bias + 16).loadUnaligned(as: SIMD8<Float>.self)
        let midBias = SIMD16(lowHalf: tail, highHalf: tail)
        switch activation {
        case .none: store(a0, m0, b0, a1, m1, b1, lowBias, midBias, output, AVX512Identity(), AVX512Identity())
        case .relu: store(a0, m0, b0, a1, m1, b1, lowBias, midBias, output, AVX512ReLU(), AVX512ReLU())
        case .relu6: store(a0, m0, b0, a1, m1, b1, lowBias, midBias, output, AVX512ReLU6(), AVX512ReLU6())
        case let .prelu(alpha):
            // The middle vectors' slopes: channels 16–23 for both halves, laid out like the bias.
            let slopes = UnsafeRawPointer(alpha + 16).loadUnaligned(as: SIMD8<Float>.self)
            withUnsafeTemporaryAllocation(of: Float.self, capacity: 16) { mid in
                UnsafeMutableRawPointer(mid.baseAddress!).storeBytes(of: SIMD16(lowHalf: slopes, highHalf: slopes), as: SIMD16<Float>.self)
                store(a0, m0, b0, a1, m1, b1, lowBias, midBias, output, AVX512PReLU(alpha: alpha), AVX512PReLU(alpha: UnsafePointer(mid.baseAddress!)))
            }
        }
    }

    @inline(__always)
    static func store<Low: AVX512ActivationFunction, Mid: AVX512ActivationFunction>(
        _ a0: SIMD16<Float>, _ m0: SIMD16<Float>, _ b0: SIMD16<Float>,
        _ a1: SIMD16<Float>, _ m1: SIMD16<Float>, _ b1: SIMD16<Float>,
        _ lowBias: SIMD16<Float>, _ midBias: SIMD16<Float>, _ output: UnsafeMutablePointer<Float>, _ low: Low, _ mid: Mid
    ) {
        storePair(a0, m0, b0, lowBias, midBias, output, low, mid)
        storePair(a1, m1, b1, lowBias, midBias, output + 2 * outputChannels, low, mid)
    }

    /// Two pixels: `a` is the first's channels 0–15, `b` the second's, `m` channels 16–23 of both.
    @inline(__always)
    static func storePair<Low: AVX512ActivationFunction, Mid: AVX512ActivationFunction>(
        _ a: SIMD16<Float>, _ m: SIMD16<Float>, _ b: SIMD16<Float>,
        _ lowBias: SIMD16<Float>, _ midBias: SIMD16<Float>, _ output: UnsafeMutablePointer<Float>, _ low: Low, _ mid: Mid
    ) {
        let c = outputChannels
        let middle = mid(m + midBias, channel: 0)
        AVX512Vector.store(low(a + lowBias, channel: 0), output, lanes: 16)
        UnsafeMutableRawPointer(output + 16).storeBytes(of: middle.lowHalf, as: SIMD8<Float>.self)
        AVX512Vector.store(low(b + lowBias, channel: 0), output + c, lanes: 16)
        UnsafeMutableRawPointer(output + c + 16).storeBytes(of: middle.highHalf, as: SIMD8<Float>.self)
    }
}
