/// 16-lane loads and stores for the AVX-512 micro-kernels.
///
/// Contract (as for `Inference`'s 8-lane kernels): every tensor and constant
/// block is followed by readable floats, so whole-vector loads may run past
/// the last channel; stores never do.
enum AVX512Vector {
    @inline(__always)
    static func load(_ pointer: UnsafePointer<Float>) -> SIMD16<Float> {
        UnsafeRawPointer(pointer).loadUnaligned(as: SIMD16<Float>.self)
    }

    /// Stores the first `lanes` lanes of `value`: whole 16, 8 and 4-lane
    /// pieces directly (the low half of a zmm register is its ymm register),
    /// any rest through memory.
    @inline(__always)
    static func store(_ value: SIMD16<Float>, _ pointer: UnsafeMutablePointer<Float>, lanes: Int) {
        let raw = UnsafeMutableRawPointer(pointer)
        if lanes >= 16 {
            raw.storeBytes(of: value, as: SIMD16<Float>.self)
            return
        }
        var rest = value
        var done = 0
        if lanes >= 8 {
            raw.storeBytes(of: value.lowHalf, as: SIMD8<Float>.self)
            rest = SIMD16(lowHalf: value.highHalf, highHalf: value.highHalf)
            done = 8
        }
        if lanes - done >= 4 {
            (raw + done * 4).storeBytes(of: rest.lowHalf.lowHalf, as: SIMD4<Float>.self)
            rest = SIMD16(lowHalf: SIMD8(lowHalf: rest.lowHalf.highHalf, highHalf: rest.lowHalf.highHalf), highHalf: rest.highHalf)
            done += 4
        }
        if lanes > done {
            var spill = rest
            withUnsafeBytes(of: &spill) { bytes in
                storePartial(bytes.baseAddress!.assumingMemoryBound(to: Float.self), pointer + done, count: lanes - done)
            }
        }
    }

    /// Copies `count` floats; out of line so the kernels stay whole-vector.
    @inline(never)
    static func storePartial(_ source: UnsafePointer<Float>, _ pointer: UnsafeMutablePointer<Float>, count: Int) {
        pointer.update(from: source, count: count)
    }
}
