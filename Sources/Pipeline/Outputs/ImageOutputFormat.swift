import ImageCore

/// How (and whether) the annotated image of each entry is written.
public struct ImageOutputFormat: Sendable {
    /// Name as shown by `describe` and hashed into the fingerprint.
    public let name: String
    /// File extension without the dot.
    public let fileExtension: String
    let encode: (@Sendable (RGBImage) throws -> [UInt8])?

    /// No image files (manifest and JSON only).
    public static let none = ImageOutputFormat(name: "none", fileExtension: "", encode: nil)

    /// A format of your own. `name` must change whenever the bytes `encode`
    /// produces would (it is part of the fingerprint), and `encode` must be
    /// deterministic.
    public static func custom(name: String, fileExtension: String,
                              encode: @escaping @Sendable (RGBImage) throws -> [UInt8]) -> ImageOutputFormat {
        ImageOutputFormat(name: name, fileExtension: fileExtension, encode: encode)
    }
}

/// `png` (facepipe's default PNG) or `none`; `describe` prints the format's
/// full name, which parses back to the same format.
extension ImageOutputFormat: StageOptionValue {
    public init?(optionText: String) {
        guard let format = [ImageOutputFormat.png, .none].first(where: { $0.name == optionText })
            ?? (optionText == "png" ? .png : nil) else { return nil }
        self = format
    }
    public var optionText: String { name }
    public static var expectedText: String { "png or none" }
}
