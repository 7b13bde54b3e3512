import RunFolders

/// Where a run's outcomes go, in sequence order: the output folder
/// (``OrderedWriter``: images, JSON, manifest, completion records) or a
/// stream of JSON lines (``JSONLinesWriter``, `facepipe detect`).
///
/// Each position takes three steps after its worker: ``order(_:)``, the
/// ordered step, on the runner's producer task in sequence order (the
/// ordered passes, output names: cheap, no bytes made); then
/// ``EntryRendering/encoded()``, the one encode step, on a task of its own
/// beside the workers (every byte of the position's outputs); then
/// ``place(_:)``, on the producer's task in sequence order again, which
/// only places those bytes. Nothing here is called concurrently.
protocol EntryWriter: AnyObject {
    associatedtype Rendering: EntryRendering
    /// Counts so far (summary line, run.json, exit status).
    var summary: RunSummary { get }
    /// A completion record an earlier run left for this entry and that this
    /// run may reuse instead of processing it (`--resume`), if any;
    /// `frame`: a video frame's index in its video.
    func reusableCompletion(archive: Int, archiveName: String, entryName: String, index: Int,
                            contentHash: String, frame: Int?) -> CompletionRecord?
    /// An entry that is not processed (a header that is not a regular
    /// file, a member left out): counted, and listed where the writer lists them.
    func addSkipped(_ skipped: RunSummary.SkippedRecord) throws
    /// The run stops early; what was written stays consistent.
    func markInterrupted()
    /// The ordered step for the next position: what its encode step needs.
    func order(_ item: SequencedOutcome) throws -> Rendering
    /// Places the next position's encoded outputs.
    func place(_ encoded: Rendering.Encoded) throws
    /// Flushes everything written.
    func finish() throws
}

/// A position between the ordered step and its placement: ``encoded()``
/// makes every byte of its outputs, off the producer's task.
protocol EntryRendering: Sendable {
    associatedtype Encoded: EncodedPosition
    /// Whether there is anything to encode (false: an error row, a resumed
    /// entry, a copied member, which need no task of their own).
    var encodes: Bool { get }
    /// Bytes held until it is encoded (the run's reorder budget).
    var heldBytes: Int { get }
    func encoded() throws -> Encoded
}

/// What a writer places for one position: bytes, rows and counts.
protocol EncodedPosition: Sendable {
    /// Bytes held until the writer places it (the run's reorder budget).
    var heldBytes: Int { get }
}
