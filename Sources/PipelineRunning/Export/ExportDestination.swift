import Foundation
import RunFolders

/// DEST: files are written through ``OutputDirectory`` (one folder at a
/// time, no symbolic link followed, each file renamed into place).
struct ExportDestination {
    let root: URL
    private let directory: OutputDirectory
    /// The folders `init` created (DEST and its missing parents), deepest first.
    private let created: [URL]

    init(_ root: URL) throws(ExportError) {
        self.root = root.standardizedFileURL
        var missing: [URL] = [], folder = self.root
        var status = stat()
        while lstat(folder.path, &status) != 0, errno == ENOENT, folder.path != "/" {
            missing.append(folder)
            folder = folder.deletingLastPathComponent()
        }
        created = missing
        do {
            try FileManager.default.createDirectory(at: self.root, withIntermediateDirectories: true)
            directory = try OutputDirectory(path: self.root.path)
        } catch {
            throw .cannotWrite(path: root.path, reason: OSReason(error, about: root.path).description)
        }
    }

    func write(_ bytes: [UInt8], to relativePath: String) throws(ExportError) {
        do {
            try bytes.withUnsafeBytes { try directory.write($0, to: relativePath) }
        } catch {
            throw .cannotWrite(path: root.appendingPathComponent(relativePath).path, reason: "\(error)")
        }
    }

    /// Removes the folders `init` created while they are empty (an export
    /// refused after its first pass leaves no DEST behind).
    func removeCreatedFolders() {
        for folder in created { rmdir(folder.path) }
    }

    /// A new nameless file in DEST (``OutputDirectory/anonymousFile()``),
    /// gone when the caller, who owns the descriptor, closes it.
    func anonymousFile() throws(ExportError) -> Int32 {
        do { return try directory.anonymousFile() } catch { throw .cannotWrite(path: root.path, reason: error.reason) }
    }

    /// A file at `relativePath` to fill piece by piece and commit.
    func streamed(_ relativePath: String) throws(ExportError) -> StreamedExportFile {
        do {
            return StreamedExportFile(try directory.streamedFile(relativePath))
        } catch {
            throw .cannotWrite(path: root.appendingPathComponent(relativePath).path, reason: "\(error)")
        }
    }

    func write(_ text: String, to relativePath: String) throws(ExportError) {
        try write(Array(text.utf8), to: relativePath)
    }
}
