/// How ``RGBImage/redact(_:feather:style:strength:)`` makes a region
/// unrecognisable.
public enum RedactionStyle: String, Sendable, Hashable, CaseIterable {
    /// A Gaussian-like blur (three passes of an integer box filter); the
    /// strength is the Gaussian's sigma in pixels.
    case blur
    /// Flat cells of the region's average colour; the strength is the cell
    /// size in pixels.
    case pixelate
    /// Solid black; the strength is not used.
    case fill
}
