import ArchiveIO
import Foundation
import Pipeline
import RunFolders

/// One image file as a run input: a single entry holding the file's bytes.
struct ImageFileEntrySource: EntrySource {
    let path: String
    let maxBytes: Int
    private var done = false
    private var readDigest: InputDigest?

    init(path: String, maxBytes: Int) {
        self.path = path
        self.maxBytes = maxBytes
    }

    mutating func next() throws -> SourceItem? {
        guard !done else { return nil }
        done = true
        let url = URL(fileURLWithPath: path)
        let size = try FileFailure.at(path) { try url.resourceValues(forKeys: [.fileSizeKey]).fileSize ?? 0 }
        guard size <= maxBytes else {
            throw ImageFileTooLarge(path: path, size: size, limit: maxBytes)
        }
        let data = [UInt8](try FileFailure.at(path) { try Data(contentsOf: url) })
        let name = url.lastPathComponent
        readDigest = InputDigest(sha256: sha256Hex(data), bytes: Int64(data.count))
        return .entry(ArchiveEntry(archive: path, index: 0, name: name, rawName: Array(name.utf8), data: data))
    }

    func digest() throws -> InputDigest? { readDigest }

    var position: ReadPosition { ReadPosition(unit: .entries, done: done ? 1 : 0, total: 1) }
}

struct ImageFileTooLarge: Error, CustomStringConvertible {
    let path: String, size: Int, limit: Int
    var description: String { "\(path) has \(size) bytes, more than the \(limit)-byte entry limit" }
}

extension RunInput {
    /// A single image file: one entry named by its file name. The run names
    /// the input `name` (by default the path as given, as `facepipe detect`
    /// prints it), and its outputs by that name alone (`isImageFile`).
    public static func imageFile(path: String, name: String? = nil, maxBytes: Int = 512 << 20) -> RunInput {
        RunInput(name: name ?? path, path: path, byteSize: regularFileSize(path), isImageFile: true) { _ in
            ImageFileEntrySource(path: path, maxBytes: maxBytes)
        }
    }
}
