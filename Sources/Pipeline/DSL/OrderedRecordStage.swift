/// A stage whose result depends on the entries before it (tracking across
/// photos of a sequence). Its per-entry `process` runs on the workers like any
/// stage; its ordered pass runs in the run's ordered step, in archive order,
/// over the records (never pixels), so results do not depend on scheduling.
/// Annotations are drawn before the ordered pass and do not show its results;
/// the manifest and the per-image JSON do.
public protocol OrderedRecordStage: Stage {
    /// A fresh pass for one run.
    func makeOrderedPass() -> any OrderedRecordPass
}

/// The stateful, in-order half of an ``OrderedRecordStage``; used by the
/// run's ordered step only (one task), never concurrently.
public protocol OrderedRecordPass: AnyObject {
    /// Called before the first entry of each archive.
    func beginArchive()
    /// Updates `record` in archive order (a failed entry arrives with no faces).
    func apply(to record: inout EntryRecord)
}
