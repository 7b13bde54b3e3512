import Foundation
import Synchronization

/// Cached stage results under `DIR/.cache/stages/`, one file per result,
/// keyed by SHA-256(entry content hash, stage fingerprint): a
/// `CachedStageResult` sealed by `SealedRecord` (`CompactEncoder`'s
/// binary form: JSON cost 2.5 % of a `faces` run, formatting every landmark
/// coordinate). Every file is read and written relative to the output
/// folder's handle without following links. A file that fails its
/// checksum, stands for other inputs or holds values the entry's own
/// decoding contradicts is recomputed and counted (`damaged`). Safe to
/// use from several workers at once: every write goes to a unique temporary
/// file and is renamed into place, so readers see a whole file or none.
package final class StageCache: Sendable {
    static let folder = ".cache/stages"
    /// Far above any real record (a face with every point group is ~20 KB).
    static let sizeLimit = 256 << 20

    private let root: OutputDirectory
    private let damagedCount = Atomic<Int>(0)

    /// Opens the cache of the output folder `root`, creating its folder;
    /// throws when a link or a file stands in the way.
    init(root: OutputDirectory) throws {
        self.root = root
        _ = try root.folder(Self.folder)
    }

    /// Cache files found damaged (or standing for other inputs) so far.
    var damaged: Int { damagedCount.load(ordering: .relaxed) }

    private func path(for key: String) -> String {
        "\(Self.folder)/\(key.prefix(2))/\(key).rec"
    }

    /// The cached result of the stage `stageFingerprint` for the entry
    /// `contentHash` whose uncached stages produced `current`; nil when
    /// absent or not trustworthy (then it is recomputed).
    func load(key: String, contentHash: String, stageFingerprint: String, current: EntryRecord) -> EntryRecord? {
        guard let bytes = root.contents(of: path(for: key), limit: Self.sizeLimit) else { return nil }
        do {
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
    func store(_ record: EntryRecord, key: String, contentHash: String, stageFingerprint: String) {
        let result = CachedStageResult(contentHash: contentHash, stageFingerprint: stageFingerprint, record: record)
        guard let bytes = try? SealedRecord.seal(result, kind: .stageResult) else { return }
        try? bytes.withUnsafeBytes { try root.write($0, to: path(for: key)) }
    }
}
