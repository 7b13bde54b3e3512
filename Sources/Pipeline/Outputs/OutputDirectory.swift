import ArchiveIO
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The output folder as an open directory handle: every file is created
/// relative to it, one component at a time, with `O_NOFOLLOW`, so a symbolic
/// link planted anywhere below the folder (`DIR/images → /elsewhere`) can
/// neither redirect a write nor be followed into; the write fails naming
/// the link instead. The folder itself may be a link: the user chose it and
/// it is opened once, here. Owns the descriptor; closes it in `deinit`.
final class OutputDirectory: @unchecked Sendable {
    // @unchecked: the descriptor is immutable after init; the calls made on
    // it (openat, mkdirat, renameat) are thread-safe.
    let path: String
    /// Read by `OutputDirectory+Records.swift` (cache and completion records).
    let descriptor: Int32

    struct Failure: Error, CustomStringConvertible {
        let path: String
        let reason: String
        var description: String { "cannot write \(path): \(reason)" }
    }

    init(path: String) throws {
        self.path = path
        descriptor = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { throw Failure(path: path, reason: String(cString: strerror(errno))) }
    }

    deinit { close(descriptor) }

    /// Writes `bytes` to `relativePath` (checked by `SafeOutputPath.checkRelative`) by
    /// writing a unique temporary sibling and renaming it over the name, so
    /// a reader sees the whole file or none. Missing folders are created.
    func write(_ bytes: UnsafeRawBufferPointer, to relativePath: String) throws {
        try SafeOutputPath.checkRelative(relativePath)
        var components = relativePath.split(separator: "/").map(String.init)
        let name = components.removeLast()
        let parent = try openFolder(components, relativePath: relativePath)
        defer { if parent != descriptor { close(parent) } }
        let temporary = ".\(name).\(UUID().uuidString).tmp"
        let file = openat(parent, temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard file >= 0 else { throw failure(relativePath, errno) }
        var written = 0
        while written < bytes.count {
            let result = Glibc.write(file, bytes.baseAddress! + written, bytes.count - written)
            if result < 0 {
                if errno == EINTR { continue }
                let code = errno
                close(file)
                unlinkat(parent, temporary, 0)
                throw failure(relativePath, code)
            }
            written += result
        }
        if close(file) != 0 {
            let code = errno
            unlinkat(parent, temporary, 0)
            throw failure(relativePath, code)
        }
        // rename replaces a link at the final name; it never writes through it.
        if renameat(parent, temporary, parent, name) != 0 {
            let code = errno
            unlinkat(parent, temporary, 0)
            throw failure(relativePath, code)
        }
    }

    /// Opens (creating when missing) each folder of `components` below the
    /// root without following links; returns the last one's descriptor.
    func openFolder(_ components: [String], relativePath: String) throws -> Int32 {
        var current = descriptor
        for component in components {
            var next = openat(current, component, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            if next < 0, errno == ENOENT {
                if mkdirat(current, component, 0o755) != 0, errno != EEXIST {
                    let code = errno
                    if current != descriptor { close(current) }
                    throw failure(relativePath, code)
                }
                next = openat(current, component, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            }
            let code = errno
            if current != descriptor { close(current) }
            guard next >= 0 else {
                // ELOOP or ENOTDIR: the component is a link or a file.
                throw code == ELOOP || code == ENOTDIR
                    ? Failure(path: path + "/" + relativePath, reason: "\(component) is a symbolic link or not a folder; refusing to follow it out of the output folder")
                    : failure(relativePath, code)
            }
            current = next
        }
        return current
    }

    private func failure(_ relativePath: String, _ code: Int32) -> Failure {
        Failure(path: path + "/" + relativePath, reason: String(cString: strerror(code)))
    }
}
