import ArchiveIO
import Pipeline
import RunFolders

/// What a worker processes: a still (an entry's bytes) or a decoded video
/// frame. One path through the scheduler for both: resumed from a
/// completion record, or processed on a worker, then written in order.
enum WorkEntry: Sendable {
    case still(ArchiveEntry, name: EntryName)
    case frame(FrameEntry)

    var name: EntryName {
        switch self {
        case .still(_, let name): name
        case .frame(let frame): frame.entryName
        }
    }

    /// The entry's position in its input (a frame: its video's).
    var index: Int {
        switch self {
        case .still(let entry, _): entry.index
        case .frame(let frame): frame.index
        }
    }

    var frame: Int? { name.frame }

    var time: Double? {
        if case .frame(let frame) = self { return frame.time }
        return nil
    }

    /// A decoded frame's pixel bytes (what the run's frame budget counts,
    /// ``RunConfiguration/videoFrameBytes``); 0 for a still.
    var frameBytes: Int {
        if case .frame(let frame) = self { return frame.image.pixels.count }
        return 0
    }

    /// Where a frame goes back into a video output.
    var origin: (pts: Int64, source: VideoSource)? {
        if case .frame(let frame) = self { return frame.source.map { (frame.pts, $0) } }
        return nil
    }

    /// The content hash, computed on the producer only when a completion
    /// record may be reused (a still's bytes are hashed on the worker
    /// otherwise; a frame's pixels were hashed as it was decoded).
    func knownHash(resuming: Bool) -> String? {
        guard resuming else { return nil }
        switch self {
        case .still(let entry, _): return sha256Hex(entry.data)
        case .frame(let frame): return frame.contentHash
        }
    }

    /// The outcome with this entry's identity, in sequence position `sequence`.
    func sequenced(_ sequence: Int, archiveNumber: Int, archiveName: String, outcome: EntryOutcome) -> SequencedOutcome {
        SequencedOutcome(sequence: sequence, archiveNumber: archiveNumber, archiveName: archiveName,
                         entry: name, index: index, outcome: outcome, time: time, origin: origin)
    }

    /// The work on a worker: the stages, from the cache where it holds them.
    func process(contentHash knownHash: String?, archiveName: String,
                 steps: [CompiledPipeline.Step], cache: StageCache?, pool: ContextPool) -> EntryOutcome {
        let context = pool.checkOut()
        defer { pool.checkIn(context) }
        let executor = StageExecutor(steps: steps, cache: cache, context: context)
        switch self {
        case .still(let entry, _):
            return executor.execute(entry, archiveName: archiveName, contentHash: knownHash ?? sha256Hex(entry.data))
        case .frame(let frame):
            return executor.execute(frame, archiveName: archiveName, contentHash: knownHash ?? frame.contentHash)
        }
    }
}
