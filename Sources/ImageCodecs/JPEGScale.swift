/// A JPEG DCT-domain scaling factor: 1, 1/2, 1/4 or 1/8.
///
/// The decoder computes each output dimension as `ceil(dimension × scale)`,
/// exactly as TurboJPEG's `TJSCALED` macro does.
public enum JPEGScale: Int, Sendable, CaseIterable, Comparable {
    case full = 1
    case half = 2
    case quarter = 4
    case eighth = 8

    /// The denominator of the factor `1 / denominator`.
    public var denominator: Int { rawValue }

    /// `ceil(dimension / denominator)`: the size TurboJPEG produces.
    public func scaled(_ dimension: Int) -> Int {
        (dimension + denominator - 1) / denominator
    }

    public static func < (lhs: JPEGScale, rhs: JPEGScale) -> Bool { lhs.rawValue < rhs.rawValue }

    /// The strongest reduction that keeps `width × height` at least
    /// `minimum` in both dimensions (`.full` when none does).
    public static func largestReduction(width: Int, height: Int, keepingAtLeast minimum: (width: Int, height: Int)) -> JPEGScale {
        var best = JPEGScale.full
        for scale in allCases where scale.scaled(width) >= minimum.width && scale.scaled(height) >= minimum.height {
            best = max(best, scale)
        }
        return best
    }
}
