/// SIMD kernels over NHWC float32 buffers.
///
/// Contract: shapes are validated by the planner; kernels index without
/// checks. Every arena tensor and constant block is followed by at least
/// `readSlack` readable floats, so 8-lane loads may run past the last
/// channel; stores never do (partial vectors are stored lane by lane).
enum Kernels {
    static let readSlack = 32

    @inline(__always)
    static func load(_ pointer: UnsafePointer<Float>) -> SIMD8<Float> {
        UnsafeRawPointer(pointer).loadUnaligned(as: SIMD8<Float>.self)
    }

    @inline(__always)
    static func load(_ pointer: UnsafeMutablePointer<Float>) -> SIMD8<Float> {
        UnsafeRawPointer(pointer).loadUnaligned(as: SIMD8<Float>.self)
    }

    /// Lane-wise maximum (the stdlib's generic `pointwiseMax` is not specialized here).
    @inline(__always)
    static func maximum(_ a: SIMD8<Float>, _ b: SIMD8<Float>) -> SIMD8<Float> {
        a.replacing(with: b, where: a .< b)
    }

    /// Stores the first `lanes` lanes of `value`.
    @inline(__always)
    static func store(_ value: SIMD8<Float>, _ pointer: UnsafeMutablePointer<Float>, lanes: Int) {
        if lanes >= 8 {
            UnsafeMutableRawPointer(pointer).storeBytes(of: value, as: SIMD8<Float>.self)
        } else {
            // The vector goes through memory: passing a SIMD8 to an out-of-line
            // function (or extracting lanes inline) leads LLVM to split whole
            // kernels into 4-lane halves.
            var spill = value
            withUnsafeBytes(of: &spill) { bytes in
                storePartial(bytes.baseAddress!.assumingMemoryBound(to: Float.self), pointer, lanes: lanes)
            }
        }
    }

    /// Copies `lanes` floats; kept out of line so kernels stay 8-lane.
    @inline(never)
    static func storePartial(_ source: UnsafePointer<Float>, _ pointer: UnsafeMutablePointer<Float>, lanes: Int) {
        pointer.update(from: source, count: lanes)
    }

    @inline(__always)
    static func activate(_ value: SIMD8<Float>, _ activation: Activation, channel: Int, constants: UnsafePointer<Float>) -> SIMD8<Float> {
        switch activation {
        case .none:
            return value
        case .relu:
            return value.replacing(with: SIMD8<Float>.zero, where: value .< SIMD8<Float>.zero)
        case .relu6:
            let positive = value.replacing(with: SIMD8<Float>.zero, where: value .< SIMD8<Float>.zero)
            return positive.replacing(with: SIMD8(repeating: 6), where: positive .> SIMD8(repeating: 6))
        case let .prelu(alpha):
            let slope = load(constants + alpha + channel)
            return value.replacing(with: value * slope, where: value .< .zero)
        }
    }
}
