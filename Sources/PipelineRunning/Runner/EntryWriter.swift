import RunFolders

/// Where a run's outcomes go, one at a time and in sequence order: the
/// output folder (``OrderedWriter``: images, JSON, manifest, completion
/// records) or a stream of JSON lines (``JSONLinesWriter``, `facepipe
/// detect`). Called only from the runner's producer task, never
/// concurrently.
protocol EntryWriter: AnyObject {
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
    /// Writes the outcome of the next position.
    func write(_ item: SequencedOutcome) throws
    /// Flushes everything written.
    func finish() throws
}
