import ArchiveIO
import ImageCodecs

/// How `--redacted-shards` treats a regular member of an input tar.
///
/// A shard is a drop-in replacement for its input (a WebDataset sample keeps
/// its captions and labels), and holds no picture facepipe has not redacted:
///
/// - a member named or sniffed as an image (JPEG, PNG, and everything
///   ``ImageLikeFormat`` recognises: PPM, QOI, SVG, WebP, TIFF, HEIF…, by
///   content, whatever its name) goes through the pipeline; its redacted
///   image takes its place, or, when facepipe cannot decode it, it is left
///   out (its manifest row says why). It is never copied.
/// - a compressed or archived member (gzip, zip, a tar…: facepipe does not
///   look inside, and it may hold pictures) is left out, listed as skipped
///   with the reason, unless the run asks for it (`--copy-unknown`).
/// - any other member (captions, JSON, class labels…) is copied byte for byte.
package enum RedactedTarMember: Equatable, Sendable {
    case image
    case copied
    case leftOut(reason: String)

    /// Extensions (lowercased, without the dot) that name an image.
    static let imageExtensions: Set<String> = [
        "jpg", "jpeg", "jpe", "jfif", "png", "gif", "webp", "bmp", "dib", "tif", "tiff",
        "jp2", "j2k", "jpx", "heic", "heif", "avif", "jxl", "ppm", "pgm", "pbm", "pnm", "pam", "pfm", "tga", "ico", "cur",
        "qoi", "svg", "svgz", "psd", "dds", "exr", "pcx", "sgi", "rgb", "ras", "xbm", "xpm", "ff", "hdr", "icns",
    ]

    package init(name: String, data: [UInt8], copyUnknown: Bool) {
        if ImageFormat(sniffing: data) != nil || Self.hasImageExtension(name) || ImageLikeFormat(sniffing: data) != nil {
            self = .image
        } else if let packed = Self.packedKind(data), !copyUnknown {
            self = .leftOut(reason: "left out of the redacted shard: \(packed), which facepipe does not look inside (--copy-unknown copies it)")
        } else {
            self = .copied
        }
    }

    static func hasImageExtension(_ name: String) -> Bool {
        let last = name.split(separator: "/").last ?? ""
        guard let dot = last.lastIndex(of: ".") else { return false }
        return imageExtensions.contains(last[last.index(after: dot)...].lowercased())
    }

    /// The compression or archive format `data` starts with, if any.
    static func packedKind(_ data: [UInt8]) -> String? {
        func at(_ offset: Int, _ magic: [UInt8]) -> Bool {
            data.count >= offset + magic.count && data[offset..<offset + magic.count].elementsEqual(magic)
        }
        if at(0, [0x37, 0x7A, 0xBC, 0xAF, 0x27, 0x1C]) { return "a 7z archive" }
        if at(0, Array("Rar!\u{1A}\u{07}".utf8)) { return "a RAR archive" }
        if at(257, Array("ustar".utf8)) { return "a tar archive" }
        switch ArchiveSignature(prefix: data) {
        case .tar(.gzip): return "gzip data"
        case .tar(.bzip2): return "bzip2 data"
        case .tar(.xz): return "xz data"
        case .tar(.zstd): return "zstd data"
        case .zip: return "a zip archive"
        case .unwritableCompression(let name): return "\(name) data"
        case .tar: return nil
        }
    }
}
