import ArchiveIO
import RunFolders

/// What an input's reader yields: an item as a run sees it, or a video
/// entry not yet decoded, which ``VideoFrames`` turns into frame items.
enum EntryRead {
    case item(SourceItem)
    case video(VideoEntry)
}

/// A video found among an input's entries (by its first bytes,
/// ``ContentKind``), not yet decoded: its place, its name as stored and
/// where its bytes are.
struct VideoEntry {
    enum Content {
        /// A tar member's bytes, in memory like any member's.
        case bytes([UInt8])
        /// A file, decoded from its open descriptor (never loaded whole).
        case file(RegularFile)
    }

    /// The video's position among its input's entries.
    let index: Int
    /// As the source names entries (the error row of a clip that cannot be decoded).
    let name: String
    /// As stored (a tar member's name, a folder's relative path, a file's name).
    let rawName: [UInt8]
    /// The video is the input itself (a video file given as an input).
    let isWholeInput: Bool
    let content: Content
}

/// The entries of one input as its format gives them (a tar, a folder, a
/// video file): stills, skipped and unreadable items, and videos left whole.
/// A reader does not decode videos: ``VideoFrames``, the one video adapter,
/// does that for every reader, so each reader just reads its format.
protocol EntryReader: SendableMetatype {
    mutating func read() throws -> EntryRead?

    /// How far `read()` has read the input, for progress.
    var position: ReadPosition { get }

    /// How far the input is read while its video is being decoded, with
    /// `bytesRead` of the video's container read by the decoder (a video
    /// file's progress is its decoder's); ``position`` unless a reader says otherwise.
    func position(decodingVideo bytesRead: Int64) -> ReadPosition

    /// As ``EntrySource/digest()``.
    mutating func digest() throws -> InputDigest?
}

extension EntryReader {
    func position(decodingVideo bytesRead: Int64) -> ReadPosition { position }
}
