/// Recognises a video container by its first bytes (never by name): ISO media (MP4, MOV: an `ftyp` box at offset 4)
/// and Matroska (MKV, WebM: the EBML magic 1A 45 DF A3). Needs the first 12 bytes; nil for anything else (JPEG, PNG, text).
public enum VideoContainerKind: String, Sendable {
    case isoMedia, matroska

    /// The number of leading bytes `init(sniffing:)` looks at.
    public static let sniffLength = 12

    public init?(sniffing prefix: some Collection<UInt8>) {
        let head = Array(prefix.prefix(Self.sniffLength))
        if head.count >= 4, head[0] == 0x1A, head[1] == 0x45, head[2] == 0xDF, head[3] == 0xA3 {
            self = .matroska
            return
        }
        // An ISO base media file starts with a box: 4-byte size, then its type `ftyp`
        // (the size covers at least the header, major brand and minor version: 16 bytes).
        if head.count >= 12, Array(head[4..<8]) == Array("ftyp".utf8) {
            let size = head[0..<4].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
            if size >= 16 {
                self = .isoMedia
                return
            }
        }
        return nil
    }

    /// The FFmpeg demuxer that reads this family (the only ones VideoIO lets FFmpeg use).
    var demuxerName: String {
        switch self {
        case .isoMedia: "mov"
        case .matroska: "matroska"
        }
    }
}
