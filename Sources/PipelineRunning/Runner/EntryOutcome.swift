import Pipeline
import RunFolders

/// What happened to one manifest position, carried from a worker (or the
/// producer) to the ordered writer.
struct SequencedOutcome: Sendable {
    /// Position in the run: (archive#, entry index) order.
    let sequence: Int
    let archiveNumber: Int
    let archiveName: String
    /// The entry's name, as its input's reader built it; nil for an
    /// input-level outcome (an archive's failure, its end).
    let entry: EntryName?
    /// Entry index in its archive; nil for an archive-level failure.
    let index: Int?
    let outcome: EntryOutcome
    /// A video frame's time in its video (nil for anything else).
    var time: Double? = nil
    /// A video frame's pts and container, for the video output.
    var origin: (pts: Int64, source: VideoSource)? = nil
}

extension SequencedOutcome {
    /// The manifest's `entry` (``EntryName/text``; empty for an input-level outcome).
    var entryName: String { entry?.text ?? "" }

    /// What outputs are named by (``EntryName/rawName``).
    var rawName: [UInt8] { entry?.rawName ?? [] }

    /// A video frame's index in its video (nil for anything else).
    var frame: Int? { entry?.frame }

    /// Bytes of output this outcome holds until the writer takes it (`RunSchedule`'s budget).
    var heldBytes: Int {
        switch outcome {
        case .rendered(let entry, _, _): (entry.image?.count ?? 0) + (entry.deferredLabels?.image.pixels.count ?? 0)
        case .copied(let bytes): bytes.count
        case .failed, .resumed, .archiveFailed, .inputEnded: 0
        }
    }
}

enum EntryOutcome: Sendable {
    case rendered(RenderedEntry, contentHash: String, cacheHits: Int)
    case failed(reason: String, contentHash: String, partial: EntryRecord?)
    case resumed(CompletionRecord)
    case archiveFailed(reason: String)
    /// `--redacted-shards`: a member that is not an image, copied into the shard as it is.
    case copied([UInt8])
    /// `--redacted-shards`: the input was read to its end (its shard can be named).
    case inputEnded
}
