import ArchiveIO
import Foundation

/// Entries of a tar (or compressed tar, or zip) file through ``TarReader``.
struct TarEntrySource: EntrySource {
    let reader: TarReader

    mutating func next() throws -> SourceItem? {
        switch try reader.next() {
        case nil:
            return nil
        case .file(let entry)?:
            return .entry(entry)
        case .skipped(let skipped)?:
            return .skipped(index: skipped.index, name: skipped.name,
                            reason: "\(skipped.kind.rawValue): \(skipped.reason)")
        }
    }
}

extension RunInput {
    /// An archive file; the manifest names it by its last path component.
    public static func archive(path: String, maxEntryBytes: Int = 512 << 20) -> RunInput {
        RunInput(name: URL(fileURLWithPath: path).lastPathComponent, path: path) {
            TarEntrySource(reader: try TarReader(path: path, options: .init(maxEntryBytes: maxEntryBytes)))
        }
    }
}
