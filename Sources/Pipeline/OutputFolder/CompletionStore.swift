/// The folder of completion records, `DIR/.cache/done`, read and written
/// relative to the output folder's handle without following links. Used by
/// the producer and the ordered writer, on one task.
final class CompletionStore {
    static let folder = ".cache/done"
    /// Far above any real record (rows and the replay record of one image).
    static let sizeLimit = 256 << 20

    private let root: OutputDirectory
    /// Records that failed their checksum or checks (recomputed).
    private(set) var damaged = 0
    /// Intact records whose outputs were missing or changed (redone).
    private(set) var outputsChanged = 0

    /// The store of the output folder `root`; without `keep`, forgets
    /// every record first (a run without `--resume` starts over). Throws
    /// when a link or a file stands in the way.
    init(root: OutputDirectory, keep: Bool) throws {
        self.root = root
        if !keep { try root.removeItem(Self.folder) }
        _ = try root.folder(Self.folder)
    }

    /// `<archive>/<index>.rec`; a video frame's `<archive>/<index>#<frame>.rec`.
    private func path(_ identity: CompletionRecord.Identity) -> String {
        "\(Self.folder)/\(identity.archiveNumber)/\(identity.index)" + (identity.frame.map { "#\($0)" } ?? "") + ".rec"
    }

    /// The record for `identity` when it may be reused: intact, standing
    /// for exactly these inputs, and every output it names unchanged.
    func reusable(_ identity: CompletionRecord.Identity) -> CompletionRecord? {
        guard let bytes = root.contents(of: path(identity),
                                          limit: Self.sizeLimit) else { return nil }
        let record: CompletionRecord
        do {
            record = try SealedRecord.open(CompletionRecord.self, kind: .completion, from: bytes)
            if let problem = record.damage { throw RecordDamage(problem) }
        } catch {
            damaged += 1
            return nil
        }
        // Another pipeline, other options or another entry: not damage, just not this entry's.
        guard record.identity == identity else { return nil }
        for output in record.outputs where root.digest(of: output.path) != .init(bytes: output.bytes, sha256: output.sha256) {
            outputsChanged += 1
            return nil
        }
        return record
    }

    func store(_ record: CompletionRecord) throws {
        let bytes = try SealedRecord.seal(record, kind: .completion)
        try bytes.withUnsafeBytes {
            try root.write($0, to: path(record.identity))
        }
    }
}
