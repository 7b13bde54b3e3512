import Foundation

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
