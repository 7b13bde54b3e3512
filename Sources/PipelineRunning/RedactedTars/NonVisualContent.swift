/// The allow-list of `--redacted-shards`: the members facepipe positively
/// knows carry no picture, judged by their bytes alone (never by name), so
/// they may be copied into a redacted shard as they are. Everything off the
/// list (a video in any container, audio, NumPy arrays, pickles, compressed
/// data, unknown binary…) may hold a picture facepipe did not redact and is
/// left out unless the run asks for it (`--copy-unknown`).
///
/// On the list:
/// - ``empty``: a member of no bytes.
/// - ``text``: UTF-8 text (after an optional byte order mark): captions,
///   class labels, JSON, CSV, Markdown, HTML that links to images. No NUL
///   (binary data) or other control character but tab, line feed and
///   carriage return (C0, DEL, C1); no run of more than ``longestEncodedRun`` base64 or hex
///   characters (an encoded file facepipe does not look inside: a picture,
///   perhaps); no run of more than ``longestByteValueRun`` whole numbers
///   from 0 to 255 (pixel values written out, as the FER-2013 CSV holds its
///   48×48 faces).
///
/// What the list cannot tell: text that draws with its characters (ASCII
/// art) or holds pixels as printable characters passes as text. A text
/// that embeds a picture facepipe recognises (SVG, a `data:image` URI, a
/// base64 JPEG or PNG: ``ImageLikeFormat``) never gets here: the caller
/// treats it as a picture first (``RedactedTarMember``).
package enum NonVisualContent: String, Equatable, Sendable {
    case empty
    case text = "UTF-8 text"

    /// The longest run of base64 or hex characters (`A`–`Z`, `a`–`z`,
    /// `0`–`9`, `+`, `/`, `=`, `-`, `_`) a text may hold: a SHA-512 in hex
    /// (128) passes; 129 characters encode 96 bytes, enough for a small
    /// WebP or GIF.
    package static let longestEncodedRun = 128
    /// The longest run of whole numbers from 0 to 255, separated by
    /// whitespace, commas, semicolons, quotes or brackets, a text may hold:
    /// 256 of them are a 16×16 grey picture, the smallest face facepipe's
    /// pipelines look for.
    package static let longestByteValueRun = 255

    /// Why bytes are not on the list: what they are, as far as the list goes.
    package struct Unknown: Error, Equatable, Sendable {
        /// `binary data (not UTF-8 text)`, `text with control characters`…
        package let what: String

        package init(what: String) { self.what = what }
    }

    /// The kind `bytes` are on the list as, or what keeps them off it.
    package static func classify(_ bytes: [UInt8]) -> Result<NonVisualContent, Unknown> {
        if bytes.isEmpty { return .success(.empty) }
        var body = bytes[...]
        if body.starts(with: [0xEF, 0xBB, 0xBF]) { body = body.dropFirst(3) }
        guard Self.isUTF8(body) else { return .failure(Self.binary) }
        var encodedRun = 0, byteValueRun = 0
        var number: Int? = nil, tokenIsNumber = true, tokenLength = 0
        func endToken() {
            if tokenLength > 0 {
                byteValueRun = tokenIsNumber && (number ?? 256) <= 255 ? byteValueRun + 1 : 0
            }
            number = nil; tokenIsNumber = true; tokenLength = 0
        }
        var previous: UInt8 = 0
        for byte in body {
            defer { previous = byte }
            if byte == 0 { return .failure(Self.binary) }
            if (byte < 0x20 && byte != 0x09 && byte != 0x0A && byte != 0x0D) || byte == 0x7F
                || (previous == 0xC2 && (0x80...0x9F).contains(byte)) {
                return .failure(Unknown(what: "text with control characters"))
            }
            encodedRun = Self.isEncodedCharacter(byte) ? encodedRun + 1 : 0
            if encodedRun > Self.longestEncodedRun {
                return .failure(Unknown(what: "text with a base64 or hex run of more than \(Self.longestEncodedRun) characters (encoded data)"))
            }
            if Self.isNumberSeparator(byte) {
                endToken()
            } else {
                tokenLength += 1
                if tokenIsNumber, byte >= 0x30, byte <= 0x39, tokenLength <= 3 {
                    number = (number ?? 0) * 10 + Int(byte - 0x30)
                } else {
                    tokenIsNumber = false
                }
            }
            if byteValueRun > Self.longestByteValueRun { return .failure(Self.pixelValues) }
        }
        endToken()
        return byteValueRun > Self.longestByteValueRun ? .failure(Self.pixelValues) : .success(.text)
    }

    private static let binary = Unknown(what: "binary data (not UTF-8 text)")
    private static let pixelValues = Unknown(what: "text with a run of more than \(longestByteValueRun) numbers from 0 to 255 (pixel values, perhaps)")

    /// Whether `bytes` are well-formed UTF-8 (checked without copying them into a string).
    private static func isUTF8(_ bytes: ArraySlice<UInt8>) -> Bool {
        var iterator = bytes.makeIterator()
        var decoder = UTF8()
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue: continue
            case .emptyInput: return true
            case .error: return false
            }
        }
    }

    private static func isEncodedCharacter(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x41...0x5A, 0x61...0x7A, 0x30...0x39, 0x2B, 0x2F, 0x3D, 0x2D, 0x5F: true
        default: false
        }
    }

    /// Whitespace, `,`, `;`, `"`, `'`, and brackets: what separates the numbers of a CSV row or a JSON array.
    private static func isNumberSeparator(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x20, 0x09, 0x0A, 0x0D, 0x2C, 0x3B, 0x22, 0x27, 0x5B, 0x5D, 0x28, 0x29, 0x7B, 0x7D: true
        default: false
        }
    }
}
