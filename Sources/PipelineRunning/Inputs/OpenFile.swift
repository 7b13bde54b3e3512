#if canImport(Glibc)
import Foundation
import Glibc
import RunFolders
#endif

/// A regular file open for reading, owned by this value's one reference:
/// closed when the last user (a video decoder reading it with pread) lets
/// go of it. Opened as the folder and file sources open files: read-only,
/// close-on-exec, checked to be a regular file after opening (not before,
/// so a file swapped for something else in between is refused).
final class OpenFile: @unchecked Sendable {
    // @unchecked: `descriptor` and `size` never change after init; reads use pread at explicit offsets.
    let descriptor: Int32
    let size: Int64
    let path: String

    /// - Parameter followLinks: false inside a folder input (a link planted
    ///   since the listing is refused), true for a file named on the command line.
    convenience init(path: String, followLinks: Bool) throws {
        try self.init(pathBytes: Array(path.utf8), followLinks: followLinks)
    }

    init(pathBytes: [UInt8], followLinks: Bool) throws {
        path = String(decoding: pathBytes, as: UTF8.self)
        let flags = O_RDONLY | O_CLOEXEC | (followLinks ? 0 : O_NOFOLLOW)
        let fd = (pathBytes + [0]).withUnsafeBufferPointer {
            open(UnsafeRawPointer($0.baseAddress!).assumingMemoryBound(to: CChar.self), flags)
        }
        guard fd >= 0 else { throw FolderUnreadable(path: pathBytes, code: errno) }
        var status = stat()
        guard fstat(fd, &status) == 0 else {
            let code = errno
            close(fd)
            throw FolderUnreadable(path: pathBytes, code: code)
        }
        guard status.st_mode & S_IFMT == S_IFREG else {
            close(fd)
            throw FolderUnreadable(path: pathBytes, code: EINVAL)
        }
        descriptor = fd
        size = Int64(status.st_size)
    }

    /// A second descriptor of a regular file already opened and checked
    /// (`dup`), for a reader that must read the bytes that were checked, not
    /// whatever the path names now.
    init(duplicating checked: Int32, size: Int64, path: String) throws {
        let fd = fcntl(checked, F_DUPFD_CLOEXEC, 0)
        guard fd >= 0 else { throw FolderUnreadable(path: path, code: errno) }
        descriptor = fd
        self.size = size
        self.path = path
    }

    deinit { close(descriptor) }

    /// The first `count` bytes (fewer in a shorter file).
    func prefix(_ count: Int) throws -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        let read = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, count, 0) }
        guard read >= 0 else { throw FolderUnreadable(path: path, code: errno) }
        return Array(bytes.prefix(read))
    }

    /// SHA-256 and size of the whole file, read with pread in 1 MiB pieces.
    func digest() throws -> InputDigest {
        let hash = RunningSHA256()
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        var offset: Int64 = 0
        while true {
            let read = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, off_t(offset)) }
            if read < 0 {
                if errno == EINTR { continue }
                throw FolderUnreadable(path: path, code: errno)
            }
            if read == 0 { return hash.finalize() }
            buffer.withUnsafeBytes { hash.update(UnsafeRawBufferPointer(rebasing: $0[0..<read])) }
            offset += Int64(read)
        }
    }
}
