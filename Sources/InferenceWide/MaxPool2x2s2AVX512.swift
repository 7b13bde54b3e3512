/// The `maxpool2x2s2_1px_avx512` micro-kernel: the whole 2×2 windows of one
/// output row of a stride-2 max pool on 16-lane vectors (BlazeFace's
/// shortcut of each stride-2 block: 28, 42 or 88 channels, two, three or
/// six vectors per pixel instead of four, six or eleven on 8 lanes).
///
/// Each output is `maximum(maximum(p00, p01), maximum(p10, p11))` with
/// `maximum(a, b)` = b where a < b, else a: the 8-lane kernel's expression
/// in its order, so the bits are the same for every input, signed zeros and
/// NaNs included.
public enum MaxPool2x2s2AVX512 {
    /// Writes `pixels` output pixels (`channels` floats each) from `output`
    /// on: pixel `p` is the maximum of input pixels `2p` and `2p + 1` of the
    /// rows from `top` and `bottom` on. Loads may run up to 15 floats past a
    /// pixel's last channel (the arena's read slack covers them). With 16
    /// channels or more, every pixel but the last ends in a whole-vector
    /// store whose lanes past its channels land in the next pixel's slots,
    /// rewritten right after (a partial store goes through memory); the last
    /// pixel's stores stop at its last channel.
    /// Not inlined: it must run as compiled for this target's CPU (AVX-512), not the caller's.
    @inline(never)
    public static func row(top: UnsafePointer<Float>, bottom: UnsafePointer<Float>, channels: Int, pixels: Int,
                           output: UnsafeMutablePointer<Float>) {
        /// Lane by lane, not `replacing(with:where:)`: with that, LLVM
        /// turned the loads of `b` into masked loads, split every vector into
        /// halves and moved each comparison between mask and vector registers
        /// (about 25 instructions per output vector); this form gives one
        /// `vmaxps` per maximum (x86's `max(b, a)` is `b > a ? b : a`, this
        /// same expression for every input, signed zeros and NaNs included).
        @inline(__always) func maximum(_ a: SIMD16<Float>, _ b: SIMD16<Float>) -> SIMD16<Float> {
            var result = a
            for lane in 0..<16 { result[lane] = a[lane] < b[lane] ? b[lane] : a[lane] }
            return result
        }
        @inline(__always) func window(_ p: Int, _ c: Int) -> SIMD16<Float> {
            let t = top + 2 * p * channels + c, b = bottom + 2 * p * channels + c
            return maximum(maximum(AVX512Vector.load(t), AVX512Vector.load(t + channels)),
                           maximum(AVX512Vector.load(b), AVX512Vector.load(b + channels)))
        }
        /// Pixel `p` in whole-vector stores (the last one's lanes past `channels` land in pixel `p + 1`).
        /// Its own loop, apart from `pixelExact`'s partial stores, so that it stays in whole 16-lane vectors.
        @inline(__always) func pixelSpilling(_ p: Int) {
            let out = UnsafeMutableRawPointer(output + p * channels)
            var c = 0
            while c < channels {
                (out + 4 * c).storeBytes(of: window(p, c), as: SIMD16<Float>.self)
                c += 16
            }
        }
        /// Pixel `p`, its stores stopping at its last channel.
        @inline(__always) func pixelExact(_ p: Int) {
            var c = 0
            while c < channels {
                AVX512Vector.store(window(p, c), output + p * channels + c, lanes: min(16, channels - c))
                c += 16
            }
        }
        guard pixels > 0 else { return }
        let spill = channels >= 16
        if spill {
            for p in 0..<(pixels - 1) { pixelSpilling(p) }
        } else {
            for p in 0..<(pixels - 1) { pixelExact(p) }
        }
        pixelExact(pixels - 1)
    }
}
