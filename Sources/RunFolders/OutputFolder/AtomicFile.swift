import Foundation

/// Writes a file whole or not at all, at an absolute location: its folder
/// is created when missing, then the file is written through
/// ``OutputDirectory`` (a unique temporary sibling renamed over the name,
/// links not followed), so a reader (or a resumed run after Ctrl-C or
/// `kill -9`) sees the whole file or none. No `fsync` (Foundation's
/// `Data.write` syncs every file, which blocked each worker six times per
/// picture): crash consistency is what the rename gives; surviving a power
/// cut is left to the file system.
enum AtomicFile {
    static func write(_ data: Data, to url: URL) throws {
        try data.withUnsafeBytes { try write($0, to: url) }
    }

    static func write(_ bytes: [UInt8], to url: URL) throws {
        try bytes.withUnsafeBytes { try write($0, to: url) }
    }

    static func write(_ bytes: UnsafeRawBufferPointer, to url: URL) throws {
        let folder = url.deletingLastPathComponent()
        let directory: OutputDirectory
        do {
            directory = try OutputDirectory(path: folder.path)
        } catch {
            // First file in this folder: create it (and its parents) once.
            try FileFailure.at(folder.path) { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) }
            directory = try OutputDirectory(path: folder.path)
        }
        try directory.write(bytes, to: url.lastPathComponent)
    }
}
