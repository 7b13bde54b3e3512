/// How 8-bit channel values become tensor floats: `value · scale + offset`
/// per channel (R, G, B), with `value` in 0…255 (after bilinear interpolation,
/// so not necessarily an integer).
public struct PixelNormalization: Sendable, Hashable {
    public var scale: SIMD3<Float>
    public var offset: SIMD3<Float>

    public init(scale: SIMD3<Float>, offset: SIMD3<Float>) {
        self.scale = scale
        self.offset = offset
    }

    /// The same `scale` and `offset` for all three channels.
    public init(scale: Float, offset: Float) {
        self.init(scale: SIMD3(repeating: scale), offset: SIMD3(repeating: offset))
    }

    /// 0…255 → 0…1 (landmark and iris models).
    public static let zeroToOne = PixelNormalization(scale: 1 / 255, offset: 0)
    /// 0…255 → −1…1, `v · 2/255 − 1` (BlazeFace detectors).
    public static let minusOneToOne = PixelNormalization(scale: 2 / 255, offset: -1)
    /// Raw 0…255 values as floats.
    public static let unscaled = PixelNormalization(scale: 1, offset: 0)
}
