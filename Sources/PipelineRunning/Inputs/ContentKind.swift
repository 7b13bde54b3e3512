import ImageCodecs
import VideoIO

/// What a file or an entry holds, by its first bytes (never by its name):
/// the one place that decides whether an input, a folder's file or a tar's
/// member is an image, a video or something else. Signatures do not
/// overlap (JPEG `FF D8 FF`, PNG `89 PNG`, ISO media `ftyp` at offset 4,
/// Matroska's EBML header), so the order of the checks does not matter.
enum ContentKind: Equatable {
    /// A JPEG or PNG image (`ImageFormat`).
    case image
    /// A video container facepipe decodes: MP4, MOV, MKV, WebM (`VideoContainerKind`).
    case video
    /// Anything else (an archive, a text, an image format facepipe does not decode).
    case other

    /// The bytes the decision needs: a file's or entry's first ones (all of a shorter one).
    static let sniffedBytes = max(8, VideoContainerKind.sniffLength)

    init(sniffing prefix: some Collection<UInt8>) {
        if VideoContainerKind(sniffing: prefix) != nil {
            self = .video
        } else if ImageFormat(sniffing: prefix.prefix(8)) != nil {
            self = .image
        } else {
            self = .other
        }
    }
}
