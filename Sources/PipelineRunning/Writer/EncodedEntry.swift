import ImageCore
import Pipeline
import RunFolders

/// One position's outputs as the writer places them: bytes under their
/// paths, a video frame's finished picture, rows and counts. Nothing in it
/// is encoded again (``OrderedWriter/place(_:)``).
struct EncodedEntry: EncodedPosition {
    let position: OutputPosition
    let content: Content

    enum Content: Sendable {
        case files(EncodedFiles)
        case failed(reason: String, contentHash: String, partial: EntryRecord?)
        case resumed(CompletionRecord)
        case archiveFailed(reason: String)
        /// `--redacted-shards`: a member that is not an image, copied into the shard as it is.
        case copied([UInt8])
        /// `--redacted-shards`: the input was read to its end (its shard can be named).
        case inputEnded

        var heldBytes: Int {
            switch self {
            case .files(let files): files.heldBytes
            case .copied(let bytes): bytes.count
            case .failed, .resumed, .archiveFailed, .inputEnded: 0
            }
        }
    }

    var heldBytes: Int { content.heldBytes }
}

/// An entry's encoded outputs (``EntryOutputs/encoded()``), in the order
/// they are written: the picture, the crops, the JSON.
struct EncodedFiles: Sendable {
    enum Picture: Sendable {
        case none
        case file(OutputBytes)
        /// `--redacted-shards`: the picture in place of the entry, in its input's shard (`path`).
        case shard(path: String, bytes: [UInt8])
        /// A video frame, drawn, for the video's encoder, with its tracked faces (``VideoOutput``).
        case videoFrame(VideoFrameTarget, RGBImage, trackedFaces: [(trackID: Int, box: Rect)])
    }

    let picture: Picture
    let crops: [OutputBytes]
    let json: OutputBytes?
    let rows: [ManifestRow]
    let counts: CompletionRecord.Counts
    let contentHash: String
    let cacheHits: Int
    /// The record before the ordered passes, for the completion record to replay them (nil: no passes).
    let recordBeforePasses: EntryRecord?

    var heldBytes: Int {
        let picture = switch picture {
        case .none: 0
        case .file(let file): file.bytes.count
        case .shard(_, let bytes): bytes.count
        case .videoFrame(_, let image, _): image.pixels.count
        }
        return picture + crops.reduce(0) { $0 + $1.bytes.count } + (json?.bytes.count ?? 0)
    }
}

/// A file's bytes under its path in the output folder, with their SHA-256
/// (taken by the encode step, for the completion record).
struct OutputBytes: Sendable {
    let path: String
    let bytes: [UInt8]
    let sha256: String

    init(path: String, bytes: [UInt8]) {
        self.path = path
        self.bytes = bytes
        sha256 = sha256Hex(bytes)
    }

    /// The completion record's entry for this file, written to `member` (an output tar's) or not.
    func output(member: TarMember?) -> CompletionRecord.Output {
        CompletionRecord.Output(path: path, bytes: bytes.count, sha256: sha256, member: member)
    }
}

/// Where a video frame goes: the video's output (`key`: the input and the
/// video's index in it; `path`, named by the ordered step), at its pts.
struct VideoFrameTarget: Sendable {
    let key: [Int]
    let path: String
    let source: VideoSource
    let pts: Int64
}
