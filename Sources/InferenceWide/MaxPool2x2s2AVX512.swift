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
        @inline(__always) func maximum(_ a: SIMD16<Float>, _ b: SIMD16<Float>) -> SIMD16<Float> {
            a.replacing(with: b, where: a .< b)
        }
        @inline(__always) func pixel(_ p: Int, exact: Bool) {
            let t = top + 2 * p * channels, b = bottom + 2 * p * channels, out = output + p * channels
            var c = 0
            while c < channels {
                let upper = maximum(AVX512Vector.load(t + c), AVX512Vector.load(t + channels + c))
                let lower = maximum(AVX512Vector.load(b + c), AVX512Vector.load(b + channels + c))
                if exact && c + 16 > channels {
                    AVX512Vector.store(maximum(upper, lower), out + c, lanes: channels - c)
                } else {
                    UnsafeMutableRawPointer(out + c).storeBytes(of: maximum(upper, lower), as: SIMD16<Float>.self)
                }
                c += 16
            }
        }
        guard pixels > 0 else { return }
        let spill = channels >= 16
        for p in 0..<(pixels - 1) { pixel(p, exact: !spill) }
        pixel(pixels - 1, exact: true)
    }
}
