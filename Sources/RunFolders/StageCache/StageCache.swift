import Foundation
import Pipeline
import Synchronization

/// Cached stage results in `DIR/.cache/stages/`, a ``RecordPack`` keyed by
/// SHA-256(entry content hash, stage fingerprint): each a
/// `CachedStageResult` sealed by `SealedRecord` (`CompactEncoder`'s
/// binary form: JSON cost 2.5 % of a `faces` run, formatting every landmark
/// coordinate). A result that fails its checks, stands for other inputs or
/// holds values the entry's own decoding contradicts is recomputed and
/// counted (`damaged`). Safe to use from several workers at once.
package final class StageCache: Sendable {
    private let pack: RecordPack
    private let damagedCount = Atomic<Int>(0)

    /// Opens the cache of the output folder `root`, creating its folder;
    /// throws when a link or a file stands in the way. A cache of the
    /// earlier layout (a file per result, in folders named by the key's
    /// first two digits) is removed: its results are recomputed.
    package init(root: OutputDirectory) throws {
        var pack = try RecordPack(folder: root.folder(OutputLayout.stageCacheFolder))
        if !pack.legacyNames.isEmpty {
            for name in pack.legacyNames { try root.removeItem("\(OutputLayout.stageCacheFolder)/\(name)") }
            pack = try RecordPack(folder: root.folder(OutputLayout.stageCacheFolder))
        }
        self.pack = pack
    }

    /// Results found damaged (or standing for other inputs) so far.
    package var damaged: Int { damagedCount.load(ordering: .relaxed) }

    /// The cached result of the stage `stageFingerprint` for the entry
    /// `contentHash` whose uncached stages produced `current`; nil when
    /// absent or not trustworthy (then it is recomputed).
    package func load(key: String, contentHash: String, stageFingerprint: String, current: EntryRecord) -> EntryRecord? {
        do {
            let bytes: [UInt8]
            switch pack.read(key) {
            case .absent: return nil
            case .damaged(let reason): throw RecordDamage(reason)
            case .found(let found): bytes = found
            }
            let result = try SealedRecord.open(CachedStageResult.self, kind: .stageResult, from: bytes)
            guard result.contentHash == contentHash, result.stageFingerprint == stageFingerprint,
                  result.record.damage(comparedWith: current) == nil else { throw RecordDamage("stands for other inputs") }
            return result.record
        } catch {
            damagedCount.add(1, ordering: .relaxed)
            return nil
        }
    }

    /// Stores a result; failures only cost a recomputation later, so they are ignored.
    package func store(_ record: EntryRecord, key: String, contentHash: String, stageFingerprint: String) {
        let result = CachedStageResult(contentHash: contentHash, stageFingerprint: stageFingerprint, record: record)
        guard let bytes = try? SealedRecord.seal(result, kind: .stageResult) else { return }
        try? pack.write(bytes, for: key)
    }
}
