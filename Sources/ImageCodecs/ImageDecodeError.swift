/// Why an image could not be decoded. Every case names what failed, so a
/// manifest row can say more than "error".
public enum ImageDecodeError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The input has zero bytes.
    case empty
    /// The bytes start with no known image signature; `prefix` holds the first
    /// (at most 16) bytes so a log shows what the file really was.
    case unknownFormat(prefix: [UInt8])
    /// The data ends before the image does (a cut-off download or archive entry).
    case truncated(format: ImageFormat, detail: String)
    /// The codec rejected the data; `detail` is the codec's own message.
    case corrupt(format: ImageFormat, detail: String)
    /// The header declares more pixels than `DecodeOptions.maxPixels`.
    /// Raised from the header alone, before any pixel buffer exists.
    case tooLarge(width: Int, height: Int, limit: Int)
    /// A valid file using a feature facepipe does not decode (for example a
    /// JPEG colour space TurboJPEG cannot convert).
    case unsupported(format: ImageFormat, detail: String)
    /// The codec library could not set itself up (out of memory, for example).
    case codecUnavailable(detail: String)

    public var description: String {
        switch self {
        case .empty:
            return "empty input (0 bytes)"
        case .unknownFormat(let prefix):
            return "unknown image format: first bytes \(Self.describe(prefix)) are neither JPEG nor PNG"
        case .truncated(let format, let detail):
            return "truncated \(format.rawValue.uppercased()) data: \(detail)"
        case .corrupt(let format, let detail):
            return "corrupt \(format.rawValue.uppercased()) data: \(detail)"
        case .tooLarge(let width, let height, let limit):
            let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
            return "image too large: \(width)x\(height) = \(overflow ? "more than \(Int.max)" : "\(pixels)") pixels exceeds the limit of \(limit)"
        case .unsupported(let format, let detail):
            return "unsupported \(format.rawValue.uppercased()) feature: \(detail)"
        case .codecUnavailable(let detail):
            return "image codec unavailable: \(detail)"
        }
    }

    /// Hex bytes followed by their printable ASCII, e.g. `68 65 6c 6c 6f ("hello")`.
    static func describe(_ bytes: [UInt8]) -> String {
        let hex = bytes.map { byte in
            let digits = String(byte, radix: 16)
            return digits.count == 1 ? "0" + digits : digits
        }.joined(separator: " ")
        let text = String(decoding: bytes.map { (0x20..<0x7F).contains($0) ? $0 : UInt8(ascii: ".") }, as: UTF8.self)
        return "\(hex) (\"\(text)\")"
    }
}
