import Foundation

/// Proof that one entry's outputs were fully written: stored last, under
/// `DIR/.cache/done/<archive#>/<entry index>.json`, holding the entry's
/// manifest rows. `--resume` reuses an entry only when its record matches the
/// same pipeline fingerprint, output options and entry content.
struct CompletionRecord: Codable, Sendable, Equatable {
    var pipelineFingerprint: String
    var outputSignature: String
    var contentHash: String
    var rows: [[String]]
    var outputs: [String]
    /// The record before in-order passes, kept only when the pipeline has
    /// some (a resumed run replays them to rebuild their state).
    var record: EntryRecord? = nil
}

/// The folder of completion records.
struct CompletionStore: Sendable {
    let directory: URL

    private func url(archive: Int, index: Int) -> URL {
        directory.appendingPathComponent(String(archive)).appendingPathComponent("\(index).json")
    }

    func load(archive: Int, index: Int) -> CompletionRecord? {
        guard let data = FileManager.default.contents(atPath: url(archive: archive, index: index).path) else { return nil }
        return try? JSONDecoder().decode(CompletionRecord.self, from: data)
    }

    func store(_ record: CompletionRecord, archive: Int, index: Int) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        try AtomicFile.write(try encoder.encode(record), to: url(archive: archive, index: index))
    }

    /// Forgets every record (a run without `--resume` starts over).
    func removeAll() {
        try? FileManager.default.removeItem(at: directory)
    }
}
