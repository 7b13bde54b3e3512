import Foundation

/// The smallest face a detector reports and searches for: a fraction of
/// the image width (ML Kit's `minFaceSize`, e.g. `.fraction(0.1)`) or an
/// absolute width in pixels of the upright image (`.pixels(20)`).
///
/// A fraction suits photos of one kind (a selfie, a passport photo: the
/// face is a known share of the frame). Pixels suit archives of any size:
/// `.pixels(20)` finds a 20-px face in a 4000-px photo as in a 640-px one,
/// where `.fraction(0.05)` would stop at 200 px and 32 px. In `.accurate`
/// mode the floor also sets how fine the image pyramid goes, so a smaller
/// floor costs more detector work on large photos.
///
/// A float literal is a fraction (`minFaceSize: 0.05`). As text (`--set`,
/// `--min-face-size`, `describe`): `20px` or `0.05`.
public struct FaceSize: Sendable, Hashable, Codable, CustomStringConvertible,
    ExpressibleByFloatLiteral, ExpressibleByIntegerLiteral {
    private enum Unit: String, Sendable, Hashable, Codable { case fraction, pixels }
    private let unit: Unit
    /// The fraction (0…1) or the pixel width (≥ 0).
    public let value: Float

    private init(unit: Unit, value: Float) {
        self.unit = unit
        self.value = value
    }

    /// Face width / image width, 0…1.
    public static func fraction(_ value: Float) -> FaceSize { FaceSize(unit: .fraction, value: value) }
    /// Face width in pixels of the upright image.
    public static func pixels(_ value: Float) -> FaceSize { FaceSize(unit: .pixels, value: value) }
    /// No floor: every face the models can find.
    public static let any = FaceSize.fraction(0)

    public init(floatLiteral value: Float) { self = .fraction(value) }
    /// `0` is "no floor"; any other integer literal is a fraction too and
    /// fails validation above 1 (write `.pixels(20)` for pixels).
    public init(integerLiteral value: Int) { self = .fraction(Float(value)) }

    /// Parses `20px` (pixels) or `0.05` (a fraction), decimal numbers only;
    /// nil for anything else, including hexadecimal (`0x10px`, which
    /// `Float(_:)` would read as 16), numbers that are not finite as a
    /// `Float` (`infpx`, `nan`, `1e39px`, which overflows).
    public init?(text: String) {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if trimmed.hasSuffix("px"), let pixels = Self.decimal(trimmed.dropLast(2)) {
            self = .pixels(pixels)
        } else if let fraction = Self.decimal(Substring(trimmed)) {
            self = .fraction(fraction)
        } else {
            return nil
        }
    }

    /// `text` as a finite `Float` when it is written in decimal: an optional
    /// `-`, digits with at most one `.` (at least one digit), an optional
    /// exponent (`e`, an optional sign, digits).
    private static func decimal(_ text: Substring) -> Float? {
        var rest = text.unicodeScalars[...]
        func digits() -> Int {
            let count = rest.prefix(while: { $0.value >= 0x30 && $0.value <= 0x39 }).count
            rest = rest.dropFirst(count)
            return count
        }
        if rest.first == "-" { rest = rest.dropFirst() }
        var count = digits()
        if rest.first == "." {
            rest = rest.dropFirst()
            count += digits()
        }
        guard count > 0 else { return nil }
        if rest.first == "e" || rest.first == "E" {
            rest = rest.dropFirst()
            if rest.first == "-" || rest.first == "+" { rest = rest.dropFirst() }
            guard digits() > 0 else { return nil }
        }
        guard rest.isEmpty, let value = Float(text), value.isFinite else { return nil }
        return value
    }

    /// The floor in pixels for an image `width` pixels wide.
    public func pixels(imageWidth width: Int) -> Float {
        switch unit {
        case .fraction: value * Float(width)
        case .pixels: value
        }
    }

    /// `20px` or the fraction with four decimals (`0.0500`).
    public var description: String {
        switch unit {
        case .fraction: String(format: "%.4f", value)
        case .pixels: (Self.isSmallWholeNumber(value) ? String(Int(value)) : String(value)) + "px"
        }
    }

    /// Whether `value` prints as an `Int`: whole and well inside `Int`'s
    /// range (an infinite or huge value made by code prints as a `Float`
    /// and fails ``validate()``, instead of trapping here).
    private static func isSmallWholeNumber(_ value: Float) -> Bool {
        value.isFinite && abs(value) < 1e9 && value.rounded() == value
    }

    /// Checks the range; a whole number over 1 given as a fraction (`40`)
    /// is most likely pixels, and the message says so (`did you mean 40px?`).
    public func validate() throws(FaceAnalysisError) {
        switch unit {
        case .fraction:
            guard value.isFinite, value >= 0, value <= 1 else {
                let whole = Self.isSmallWholeNumber(value)
                let hint = whole && value > 1 ? "; did you mean \(Int(value))px?" : ""
                throw .invalidOption("\(whole ? String(Int(value)) : String(value)) is neither a fraction of the image width in 0…1 nor pixels like 20px\(hint)")
            }
        case .pixels:
            guard value.isFinite, value >= 0, value <= 100_000 else {
                throw .invalidOption("minFaceSize in pixels must be in 0…100000, got \(value)")
            }
        }
    }
}
