import ArchiveIO
import ImageCodecs

/// How `--redacted-shards` treats a regular member of an input tar: an
/// image goes through the pipeline and its redacted image takes its place
/// (or, when it cannot be processed, it is left out); anything else is
/// copied through byte for byte.
///
/// A member is an image when its bytes start with an image signature (JPEG,
/// PNG, GIF, WebP, BMP, TIFF, JPEG 2000, HEIF/AVIF) or its name ends in an
/// image extension, whichever says so: a WebP or a damaged JPEG facepipe
/// cannot redact is left out, never copied unredacted.
package enum ShardMember: Equatable, Sendable {
    case image
    case copied

    /// Extensions (lowercased, without the dot) that name an image.
    static let imageExtensions: Set<String> = [
        "jpg", "jpeg", "jpe", "jfif", "png", "gif", "webp", "bmp", "dib", "tif", "tiff",
        "jp2", "j2k", "jpx", "heic", "heif", "avif", "jxl", "ppm", "pgm", "pbm", "pnm", "tga", "ico",
    ]

    package init(name: String, data: [UInt8]) {
        self = Self.hasImageSignature(data) || Self.hasImageExtension(name) ? .image : .copied
    }

    static func hasImageExtension(_ name: String) -> Bool {
        let last = name.split(separator: "/").last ?? ""
        guard let dot = last.lastIndex(of: ".") else { return false }
        return imageExtensions.contains(last[last.index(after: dot)...].lowercased())
    }

    static func hasImageSignature(_ data: [UInt8]) -> Bool {
        if ImageFormat(sniffing: data) != nil { return true }
        let head = Array(data.prefix(12))
        func at(_ offset: Int, _ magic: [UInt8]) -> Bool {
            head.count >= offset + magic.count && Array(head[offset..<offset + magic.count]) == magic
        }
        let ascii = { (text: String) in Array(text.utf8) }
        return at(0, ascii("GIF8"))                                         // GIF
            || (at(0, ascii("RIFF")) && at(8, ascii("WEBP")))               // WebP
            || (at(0, ascii("BM")) && at(6, [0, 0, 0, 0]))                  // BMP (reserved bytes zero)
            || at(0, [0x49, 0x49, 0x2A, 0x00]) || at(0, [0x4D, 0x4D, 0x00, 0x2A])  // TIFF
            || at(0, [0x00, 0x00, 0x00, 0x0C, 0x6A, 0x50, 0x20, 0x20])      // JPEG 2000
            || at(0, [0xFF, 0x4F, 0xFF, 0x51])                              // JPEG 2000 codestream
            || (at(4, ascii("ftyp")) && ["heic", "heix", "mif1", "msf1", "avif", "avis"].contains { at(8, ascii($0)) })
            || at(0, [0xFF, 0x0A])                                          // JPEG XL
    }
}
