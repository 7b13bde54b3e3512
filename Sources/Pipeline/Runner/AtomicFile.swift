import Foundation

/// Writes a file by writing a unique temporary sibling and renaming it, so a
/// reader (or a resumed run after Ctrl-C or `kill -9`) sees the whole file or
/// none. Plain POSIX calls on the caller's bytes: no copy into `Data`, and no
/// `fsync` (Foundation's `Data.write` syncs every file, which blocked each
/// worker six times per picture). Crash consistency is what the rename gives;
/// surviving a power cut is left to the file system.
enum AtomicFile {
    static func write(_ data: Data, to url: URL) throws {
        try data.withUnsafeBytes { try write($0, to: url) }
    }

    static func write(_ bytes: [UInt8], to url: URL) throws {
        try bytes.withUnsafeBytes { try write($0, to: url) }
    }

    static func write(_ bytes: UnsafeRawBufferPointer, to url: URL) throws {
        let folder = url.deletingLastPathComponent()
        let temporary = folder.appendingPathComponent(".\(url.lastPathComponent).\(UUID().uuidString).tmp").path
        var descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        if descriptor < 0, errno == ENOENT {
            // First file in this folder: create it (and its parents) once.
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        }
        guard descriptor >= 0 else { throw failure(url, errno) }
        var written = 0
        while written < bytes.count {
            let result = Foundation.write(descriptor, bytes.baseAddress! + written, bytes.count - written)
            if result < 0 {
                if errno == EINTR { continue }
                let code = errno
                close(descriptor)
                unlink(temporary)
                throw failure(url, code)
            }
            written += result
        }
        if close(descriptor) != 0 {
            let code = errno
            unlink(temporary)
            throw failure(url, code)
        }
        if rename(temporary, url.path) != 0 {
            let code = errno
            unlink(temporary)
            throw failure(url, code)
        }
    }

    private static func failure(_ url: URL, _ code: Int32) -> CocoaError {
        CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: url.path, "errno": code,
                                                NSLocalizedDescriptionKey: "cannot write \(url.path): \(String(cString: strerror(code)))"])
    }
}
