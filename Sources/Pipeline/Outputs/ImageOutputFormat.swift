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

/// `png` (facepipe's default PNG), `jpeg` (quality 90) or `jpeg(quality: N)`,
/// or `none`; `describe` prints the format's full name, which parses back to
/// the same format.
extension ImageOutputFormat: StageOptionValue {
    public init?(optionText: String) {
        if let format = [ImageOutputFormat.png, .none].first(where: { $0.name == optionText })
            ?? (optionText == "png" ? .png : nil) {
            self = format
        } else if optionText == "jpeg" {
            self = .jpeg(quality: 90)
        } else if let quality = ImageOutputFormat(name: optionText, fileExtension: "", encode: nil).jpegQuality {
            self = .jpeg(quality: quality)
        } else {
            return nil
        }
    }
    public var optionText: String { name }
    public static var expectedText: String { "png, jpeg, jpeg(quality: N) or none" }
}
