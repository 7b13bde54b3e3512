import ArchiveIO
import ImageCodecs
import RunFolders

/// How `--redacted-shards` treats a regular member of an input tar: the one
/// place that decides which members may leave facepipe in a redacted shard.
///
/// A shard holds only what facepipe redacted or positively knows carries no
/// picture (deny by default), so a WebDataset sample keeps its captions and
/// labels and nothing else goes through unseen:
///
/// - a member named or sniffed as an image (JPEG, PNG, and everything
///   ``ImageLikeFormat`` recognises: PPM, QOI, SVG, WebP, TIFF, HEIF…, or
///   text embedding a picture, by content, whatever its name) goes through
///   the pipeline; its redacted image takes its place, or, when facepipe
///   cannot decode it, it is left out (its manifest row says why). It is
///   never copied, not even with `--copy-unknown`.
/// - a member on the allow-list (``NonVisualContent``: empty, or UTF-8 text
///   with no control characters, long encoded runs or runs of pixel values)
///   is copied byte for byte.
/// - any other member (a video in a container facepipe does not read, raw
///   H.264, audio, NumPy arrays, compressed or archived data, unknown
///   binary…) is left out, listed as skipped with what it is, unless the run
///   asks for it (`--copy-unknown`: copied byte for byte).
package enum RedactedTarMember: Equatable, Sendable {
    case image
    case copied
    case leftOut(reason: String)

    /// How every reason for leaving a member out of its shard starts (the
    /// run's summary names the skipped members whose reason does: ``RunSummary/line``).
    package static let leftOutPrefix = "left out of the redacted shard: "

    /// Whether `skipped` is a member left out of its redacted shard.
    static func isLeftOut(_ skipped: RunSummary.SkippedRecord) -> Bool {
        skipped.reason.hasPrefix(leftOutPrefix)
    }

    /// Extensions (lowercased, without the dot) that name an image.
    static let imageExtensions: Set<String> = [
        "jpg", "jpeg", "jpe", "jfif", "png", "gif", "webp", "bmp", "dib", "tif", "tiff",
        "jp2", "j2k", "jpx", "heic", "heif", "avif", "jxl", "ppm", "pgm", "pbm", "pnm", "pam", "pfm", "tga", "ico", "cur",
        "qoi", "svg", "svgz", "psd", "dds", "exr", "pcx", "sgi", "rgb", "ras", "xbm", "xpm", "ff", "hdr", "icns",
    ]

    package init(name: String, data: [UInt8], copyUnknown: Bool) {
        if ImageFormat(sniffing: data) != nil || Self.hasImageExtension(name) || ImageLikeFormat(sniffing: data) != nil {
            self = .image
            return
        }
        switch NonVisualContent.classify(data) {
        case .success:
            self = .copied
        case .failure where copyUnknown:
            self = .copied
        case .failure(let unknown):
            if let packed = Self.packedKind(data) {
                self = .leftOut(reason: Self.leftOutPrefix + "\(packed), which facepipe does not look inside (--copy-unknown copies it)")
            } else {
                self = .leftOut(reason: Self.leftOutPrefix + "\(unknown.what), not known to carry no picture (--copy-unknown copies it)")
            }
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
