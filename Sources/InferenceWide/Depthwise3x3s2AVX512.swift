/// The `dwconv3x3s2_8px_avx512` micro-kernel: the interior of one output row
/// of a stride-2 3×3 depthwise convolution on 16-lane vectors (BlazeFace's
/// stride-2 blocks: 28, 42 or 88 channels, two, three or six vectors per
/// pixel instead of four, six or eleven on 8 lanes).
///
/// Eight output pixels at a time per 16-channel block (then one at a time):
/// eight independent FMA chains, and each kernel row's 17 input columns
/// loaded once for the eight pixels they touch. With 16 channels or more
/// the last block ends at the last channel, overlapping the one before it
/// (28 channels: blocks at 0 and 12), so every load and store is a whole
/// vector inside the pixel; a lane that two blocks compute gets the same
/// bits from both. Each output sums its nine taps from zero in the same
/// order as `Inference`'s 8-lane kernel (kernel row, then column), then adds
/// the bias and applies the activation, so results are bit-identical.
///
/// Weights are the 8-lane kernel's layout (`[3][3][padded]`, `padded` =
/// channels rounded up to 8, zero beyond the channels); with fewer than 16
/// channels a load runs past them (the last tap's row needs 8 readable
/// floats after it).
public enum Depthwise3x3s2AVX512 {
    /// Writes `pixels` output pixels (`channels` floats each) from `output`
    /// on: pixel `p` sums input pixels `2p`, `2p + 1` and `2p + 2` of the
    /// rows from `top`, `middle` and `bottom` on (pixels `channels` floats
    /// apart) against the taps' weights, then adds `bias` and applies
    /// `activation` (bias and PReLU slopes readable 16 floats past the
    /// first channel). With fewer than 16 channels, loads run up to 15
    /// floats past a pixel's last channel (the arena's read slack covers
    /// them); stores always stop at each pixel's last channel.
    /// Not inlined: it must run as compiled for this target's CPU (AVX-512), not the caller's.
    @inline(never)
    public static func row(top: UnsafePointer<Float>, middle: UnsafePointer<Float>, bottom: UnsafePointer<Float>,
                           channels: Int, weights: UnsafePointer<Float>, padded: Int, bias: UnsafePointer<Float>,
                           pixels: Int, activation: AVX512Activation, output: UnsafeMutablePointer<Float>) {
        let rows = (top, middle, bottom)
        switch activation {
        case .none: sweep(rows, channels, weights, padded, bias, pixels, output, AVX512Identity())
        case .relu: sweep(rows, channels, weights, padded, bias, pixels, output, AVX512ReLU())
        case .relu6: sweep(rows, channels, weights, padded, bias, pixels, output, AVX512ReLU6())
        case let .prelu(alpha): sweep(rows, channels, weights, padded, bias, pixels, output, AVX512PReLU(alpha: alpha))
        }
    }

    @inline(__always)
    private static func sweep<A: AVX512ActivationFunction>(
        _ rows: (UnsafePointer<Float>, UnsafePointer<Float>, UnsafePointer<Float>), _ channels: Int,
        _ weights: UnsafePointer<Float>, _ padded: Int, _ bias: UnsafePointer<Float>, _ pixels: Int,
        _ output: UnsafeMutablePointer<Float>, _ activation: A
    ) {
        typealias Eight = (SIMD16<Float>, SIMD16<Float>, SIMD16<Float>, SIMD16<Float>,
                           SIMD16<Float>, SIMD16<Float>, SIMD16<Float>, SIMD16<Float>)
        /// Channels `c…c+15` of the eight pixels from pixel `p` on, activated;
        /// pixel j reads columns 2j, 2j + 1 and 2j + 2, each column loaded once.
        @inline(__always) func eightSums(_ p: Int, _ c: Int) -> Eight {
            var s0 = SIMD16<Float>.zero, s1 = s0, s2 = s0, s3 = s0, s4 = s0, s5 = s0, s6 = s0, s7 = s0
            @inline(__always) func kernelRow(_ ky: Int, _ input: UnsafePointer<Float>) {
                let w = weights + 3 * ky * padded + c
                let wa = AVX512Vector.load(w), wb = AVX512Vector.load(w + padded), wc = AVX512Vector.load(w + 2 * padded)
                let r = input + 2 * p * channels + c
                @inline(__always) func x(_ column: Int) -> SIMD16<Float> { AVX512Vector.load(r + column * channels) }
                let x0 = x(0), x1 = x(1), x2 = x(2)
                s0 = s0.addingProduct(x0, wa); s0 = s0.addingProduct(x1, wb); s0 = s0.addingProduct(x2, wc)
                let x3 = x(3), x4 = x(4)
                s1 = s1.addingProduct(x2, wa); s1 = s1.addingProduct(x3, wb); s1 = s1.addingProduct(x4, wc)
                let x5 = x(5), x6 = x(6)
                s2 = s2.addingProduct(x4, wa); s2 = s2.addingProduct(x5, wb); s2 = s2.addingProduct(x6, wc)
                let x7 = x(7), x8 = x(8)
                s3 = s3.addingProduct(x6, wa); s3 = s3.addingProduct(x7, wb); s3 = s3.addingProduct(x8, wc)
                let x9 = x(9), x10 = x(10)
                s4 = s4.addingProduct(x8, wa); s4 = s4.addingProduct(x9, wb); s4 = s4.addingProduct(x10, wc)
                let x11 = x(11), x12 = x(12)
                s5 = s5.addingProduct(x10, wa); s5 = s5.addingProduct(x11, wb); s5 = s5.addingProduct(x12, wc)
                let x13 = x(13), x14 = x(14)
                s6 = s6.addingProduct(x12, wa); s6 = s6.addingProduct(x13, wb); s6 = s6.addingProduct(x14, wc)
                let x15 = x(15), x16 = x(16)
                s7 = s7.addingProduct(x14, wa); s7 = s7.addingProduct(x15, wb); s7 = s7.addingProduct(x16, wc)
            }
            kernelRow(0, rows.0)
            kernelRow(1, rows.1)
            kernelRow(2, rows.2)
            let b = AVX512Vector.load(bias + c)
            return (activation(s0 + b, channel: c), activation(s1 + b, channel: c), activation(s2 + b, channel: c),
                    activation(s3 + b, channel: c), activation(s4 + b, channel: c), activation(s5 + b, channel: c),
                    activation(s6 + b, channel: c), activation(s7 + b, channel: c))
        }
        /// Eight pixels from pixel `p` on, in whole-vector stores (16 channels
        /// or more): the last block ends at the last channel, overlapping
        /// the one before it, whose lanes it recomputes with the same bits.
        /// (With a partial store of the last block in this loop, the
        /// compiler split the whole loop's vectors into 256-bit halves.)
        @inline(__always) func eight(_ p: Int) {
            var block = 0
            while block < channels {
                let c = min(block, channels - 16)
                let v = eightSums(p, c)
                let out = UnsafeMutableRawPointer(output + p * channels + c), step = 4 * channels
                out.storeBytes(of: v.0, as: SIMD16<Float>.self); (out + step).storeBytes(of: v.1, as: SIMD16<Float>.self)
                (out + 2 * step).storeBytes(of: v.2, as: SIMD16<Float>.self); (out + 3 * step).storeBytes(of: v.3, as: SIMD16<Float>.self)
                (out + 4 * step).storeBytes(of: v.4, as: SIMD16<Float>.self); (out + 5 * step).storeBytes(of: v.5, as: SIMD16<Float>.self)
                (out + 6 * step).storeBytes(of: v.6, as: SIMD16<Float>.self); (out + 7 * step).storeBytes(of: v.7, as: SIMD16<Float>.self)
                block += 16
            }
        }
        /// One pixel, every 16-channel block as in `eight` (fewer than 16
        /// channels: one vector, stored lane by lane).
        @inline(__always) func one(_ p: Int) {
            var block = 0
            while block < channels {
                let c = channels >= 16 ? min(block, channels - 16) : 0
                var sum = SIMD16<Float>.zero
                @inline(__always) func kernelRow(_ ky: Int, _ input: UnsafePointer<Float>) {
                    let w = weights + 3 * ky * padded + c
                    let r = input + 2 * p * channels + c
                    sum = sum.addingProduct(AVX512Vector.load(r), AVX512Vector.load(w))
                    sum = sum.addingProduct(AVX512Vector.load(r + channels), AVX512Vector.load(w + padded))
                    sum = sum.addingProduct(AVX512Vector.load(r + 2 * channels), AVX512Vector.load(w + 2 * padded))
                }
                kernelRow(0, rows.0)
                kernelRow(1, rows.1)
                kernelRow(2, rows.2)
                let value = activation(sum + AVX512Vector.load(bias + c), channel: c)
                if channels >= 16 {
                    UnsafeMutableRawPointer(output + p * channels + c).storeBytes(of: value, as: SIMD16<Float>.self)
                } else {
                    AVX512Vector.store(value, output + p * channels, lanes: channels)
                }
                block += 16
            }
        }
        var p = 0
        while channels >= 16 && p + 8 <= pixels {
            eight(p)
            p += 8
        }
        while p < pixels {
            one(p)
            p += 1
        }
    }
}
