import CFFmpeg

/// A fraction as FFmpeg keeps frame rates and time bases (`AVRational`).
public struct Rational: Sendable, Equatable, Hashable, CustomStringConvertible {
    public var numerator: Int32
    public var denominator: Int32

    public init(numerator: Int32, denominator: Int32) {
        self.numerator = numerator
        self.denominator = denominator
    }

    init(_ value: AVRational) {
        self.init(numerator: value.num, denominator: value.den)
    }

    var av: AVRational { AVRational(num: numerator, den: denominator) }

    /// True when both parts are positive (FFmpeg writes 0/0 or 0/1 for "unknown").
    public var isPositive: Bool { numerator > 0 && denominator > 0 }

    /// The value as a Double (0 when the denominator is 0).
    public var doubleValue: Double { denominator == 0 ? 0 : Double(numerator) / Double(denominator) }

    public var description: String { "\(numerator)/\(denominator)" }
}
