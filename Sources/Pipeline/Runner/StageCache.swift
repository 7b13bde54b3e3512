import Foundation

/// Cached stage results (``EntryRecord``s in ``CompactEncoder``'s binary
/// form: JSON cost 2.5 % of a `faces` run, formatting every landmark
/// coordinate) under `DIR/.cache/stages/`, keyed by SHA-256(entry content
/// hash, stage fingerprint). Safe to use from
/// several workers at once: every write goes to a unique temporary file and
/// is renamed into place, so readers see a whole file or none.
public final class StageCache: Sendable {
    let directory: URL

    public init(directory: URL) {
        self.directory = directory
    }

    private func url(for key: String) -> URL {
        directory.appendingPathComponent(String(key.prefix(2))).appendingPathComponent(key + ".bin")
    }

    /// The cached record, or nil when absent or unreadable (then it is recomputed).
    func load(key: String) -> EntryRecord? {
        guard let data = FileManager.default.contents(atPath: url(for: key).path) else { return nil }
        return try? CompactDecoder.decode(EntryRecord.self, from: [UInt8](data))
    }

    /// Stores a record; failures only cost a recomputation later, so they are ignored.
    func store(_ record: EntryRecord, key: String) {
        guard let bytes = try? CompactEncoder.encode(record) else { return }
        try? AtomicFile.write(bytes, to: url(for: key))
    }
}
