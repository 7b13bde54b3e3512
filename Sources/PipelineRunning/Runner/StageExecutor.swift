import ArchiveIO
import Foundation
import Pipeline
import RunFolders

/// Runs one entry through a plan's steps, in order: a cacheable step whose
/// result is in the stage cache (and that this run need not recompute) is
/// restored from it; every other step runs itself (``StageNode/Run``).
struct StageExecutor {
    let steps: [CompiledPipeline.Step]
    let cache: StageCache?
    let context: StageContext

    func execute(_ entry: ArchiveEntry, archiveName: String, contentHash: String) -> EntryOutcome {
        execute(EntryState(record: EntryRecord(archive: archiveName, entry: entry.name, index: entry.index), encoded: entry.data),
                contentHash: contentHash)
    }

    /// A video frame: its pixels are already decoded (``Decode`` passes them
    /// on), its rotation is recorded as the EXIF orientation ``Orient`` applies.
    func execute(_ frame: FrameEntry, archiveName: String, contentHash: String) -> EntryOutcome {
        var record = EntryRecord(archive: archiveName, entry: frame.name, index: frame.index)
        record.frame = frame.frame
        record.time = frame.time
        record.exifOrientation = frame.exifOrientation
        var state = EntryState(record: record, encoded: [])
        state.image = frame.image
        return execute(state, contentHash: contentHash)
    }

    private func execute(_ start: EntryState, contentHash: String) -> EntryOutcome {
        var state = start
        var cacheHits = 0
        // The record after the last step that succeeded (fills the size columns of an error row).
        var lastRecord: EntryRecord?
        for step in steps {
            let cacheKey = step.caching == .records ? step.cacheKey(contentHash: contentHash) : nil
            if let cacheKey, let cache, !step.recompute,
               var cached = cache.load(key: cacheKey, contentHash: contentHash, stageFingerprint: step.fingerprint,
                                       current: state.record) {
                // The cache is keyed by content: keep this entry's identity.
                cached.archive = state.record.archive
                cached.entry = state.record.entry
                cached.index = state.record.index
                cached.sourceFormat = state.record.sourceFormat
                cached.frame = state.record.frame
                cached.time = state.record.time
                state.record = cached
                cacheHits += 1
                lastRecord = cached
                continue
            }
            do {
                try step.run(&state, context)
            } catch {
                let failure = StageFailure(stage: step.definition.name, error: error)
                return .failed(reason: failure.description, contentHash: contentHash, partial: lastRecord)
            }
            lastRecord = state.record
            if let cacheKey, let cache {
                cache.store(state.record, key: cacheKey, contentHash: contentHash, stageFingerprint: step.fingerprint)
            }
        }
        guard let rendered = state.rendered else {
            return .failed(reason: "the pipeline ended without outputs", contentHash: contentHash, partial: lastRecord)
        }
        return .rendered(rendered, contentHash: contentHash, cacheHits: cacheHits)
    }
}
