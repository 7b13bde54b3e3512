import FaceAnalysis

/// A value a stage option takes, with its one text form: the text
/// `describe` prints and `--set STAGE.OPTION=VALUE` parses.
public protocol StageOptionValue {
    /// Parses the text ``optionText`` prints (and the spellings
    /// ``expectedText`` names); nil if the text is not such a value.
    init?(optionText: String)
    /// The value as `describe` prints it.
    var optionText: String { get }
    /// What a valid text looks like, for the error about one that is not ("true or false").
    static var expectedText: String { get }
}

extension Float: StageOptionValue {
    /// A finite number (`0.6`, `1e-3`).
    public init?(optionText: String) {
        guard let value = Float(optionText), value.isFinite else { return nil }
        self = value
    }
    /// Swift's shortest exact form (`0.2`).
    public var optionText: String { "\(self)" }
    public static var expectedText: String { "a number like 0.5" }
}

extension Int: StageOptionValue {
    public init?(optionText: String) {
        guard let value = Int(optionText) else { return nil }
        self = value
    }
    public var optionText: String { String(self) }
    public static var expectedText: String { "a whole number" }
}

extension Bool: StageOptionValue {
    public init?(optionText: String) {
        guard let value = Bool(optionText) else { return nil }
        self = value
    }
    public var optionText: String { "\(self)" }
    public static var expectedText: String { "true or false" }
}

extension String: StageOptionValue {
    public init?(optionText: String) { self = optionText }
    public var optionText: String { self }
    public static var expectedText: String { "any text" }
}

/// An optional whole number whose absence means "chosen automatically"
/// (``Annotate``'s thickness): `auto` or the number.
extension Optional: StageOptionValue where Wrapped == Int {
    public init?(optionText: String) {
        if optionText == "auto" {
            self = .none
        } else if let value = Int(optionText) {
            self = .some(value)
        } else {
            return nil
        }
    }
    public var optionText: String { map(String.init) ?? "auto" }
    public static var expectedText: String { "auto or a whole number" }
}

/// `20px` (pixels) or `0.05` (a fraction of the image width), as ``FaceSize/init(text:)`` reads them.
extension FaceSize: StageOptionValue {
    public init?(optionText: String) { self.init(text: optionText) }
    public var optionText: String { description }
    public static var expectedText: String { "pixels like 20px or a fraction of the image width like 0.05" }
}

/// An option whose values are the cases of a string enum, spelled as their raw values.
extension StageOptionValue where Self: RawRepresentable & CaseIterable, RawValue == String {
    public init?(optionText: String) { self.init(rawValue: optionText) }
    public var optionText: String { rawValue }
    public static var expectedText: String {
        let names = allCases.map(\.rawValue)
        return names.count == 1 ? names[0] : names.dropLast().joined(separator: ", ") + " or " + names[names.count - 1]
    }
}

extension DetectorMode: StageOptionValue {}

extension DetectorArithmetic: StageOptionValue {}

extension UnconfirmedFaces: StageOptionValue {}
