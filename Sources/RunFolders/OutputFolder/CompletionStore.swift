/// The completion records in `DIR/.cache/done`, a ``RecordPack`` keyed by
/// the entry's place (input number, entry index, video frame). Used by the
/// producer and the ordered writer, on one task.
package final class CompletionStore {
    private let root: OutputDirectory
    private let pack: RecordPack
    /// `--output-tar`'s finished tars, where records name their members.
    private let tars: FinishedTars
    /// One line for each finished tar found damaged (its entries are redone).
    package private(set) var notes: [String] = []
    private var notedTars: Set<Int> = []
    /// Records that failed their checksum or checks (recomputed).
    package private(set) var damaged = 0
    /// Intact records whose outputs were missing or changed (redone).
    package private(set) var outputsChanged = 0

    /// Why `--resume` cannot use a folder's records.
    struct EarlierLayout: Error, CustomStringConvertible {
        let path: String
        var description: String {
            "\(path) holds completion records of an earlier facepipe (a file per entry), which --resume does not read; "
                + "run again without --resume to start over in this folder"
        }
    }

    /// The store of the output folder `root`; without `keep`, forgets
    /// every record first (a run without `--resume` starts over). Throws
    /// when a link or a file stands in the way, or when `keep` meets the
    /// earlier layout's records.
    package init(root: OutputDirectory, keep: Bool) throws {
        self.root = root
        if !keep { try root.removeItem(OutputLayout.completionsFolder) }
        pack = try RecordPack(folder: root.folder(OutputLayout.completionsFolder))
        tars = FinishedTars(root: root)
        if !pack.legacyNames.isEmpty { throw EarlierLayout(path: root.path + "/" + OutputLayout.completionsFolder) }
    }

    /// `<archive>/<index>`; a video frame's `<archive>/<index>#<frame>` (``EntryName/completionKey(input:index:frame:)``).
    private func key(_ identity: CompletionRecord.Identity) -> String {
        EntryName.completionKey(input: identity.archiveNumber, index: identity.index, frame: identity.frame)
    }

    /// The record for `identity` when it may be reused: intact, standing
    /// for exactly these inputs, and every output it names unchanged.
    package func reusable(_ identity: CompletionRecord.Identity) -> CompletionRecord? {
        let record: CompletionRecord
        do {
            switch pack.read(key(identity)) {
            case .absent: return nil
            case .damaged(let reason): throw RecordDamage(reason)
            case .found(let bytes):
                record = try SealedRecord.open(CompletionRecord.self, kind: .completion, from: bytes)
            }
            if let problem = record.damage { throw RecordDamage(problem) }
        } catch {
            damaged += 1
            return nil
        }
        // Another pipeline, other options or another entry: not damage, just not this entry's.
        guard record.identity == identity else { return nil }
        for output in record.outputs where !isIntact(output) {
            outputsChanged += 1
            return nil
        }
        return record
    }

    /// Whether `output` is there as it was written: a file under DIR, or a
    /// member of a finished tar (a damaged tar is noted once).
    private func isIntact(_ output: CompletionRecord.Output) -> Bool {
        guard let member = output.member else {
            return root.digest(of: output.path) == .init(bytes: output.bytes, sha256: output.sha256)
        }
        switch tars.check(output) {
        case .intact: return true
        case .missing: return false
        case .damaged(let reason):
            if notedTars.insert(member.shard).inserted {
                notes.append("\(FinishedTars.path(member.shard)): \(reason); each entry whose member differs is done again and the tar is written anew")
            }
            return false
        }
    }

    package func store(_ record: CompletionRecord) throws {
        try pack.write(SealedRecord.seal(record, kind: .completion), for: key(record.identity))
    }
}
