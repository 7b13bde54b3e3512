import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A regular file open for reading, and nothing else: opened with
/// `O_NOFOLLOW` (a link as the last component is refused) and `O_NONBLOCK`
/// (a FIFO or a device cannot make the open wait), then checked with
/// `fstat` before a byte is read. Owns its descriptor and closes it.
package final class RegularFile {
    package let descriptor: Int32
    /// The size `fstat` gave when it was opened.
    package let size: Int64
    /// The path as asked for, for messages.
    package let path: String

    /// Opens `name` relative to the folder `directory` (`AT_FDCWD`: the
    /// current folder, or `name` is absolute).
    package init(_ name: String, in directory: Int32 = AT_FDCWD, shownAs path: String? = nil) throws(RunFolderError) {
        let shown = path ?? name
        self.path = shown
        let fd = openat(directory, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else {
            let code = errno
            if code == ELOOP || RegularFile.isLink(name, in: directory) { throw .symbolicLink(path: shown) }
            throw .unreadable(path: shown, reason: String(cString: strerror(code)))
        }
        var status = stat()
        guard fstat(fd, &status) == 0 else {
            let code = errno
            close(fd)
            throw .unreadable(path: shown, reason: String(cString: strerror(code)))
        }
        guard status.st_mode & S_IFMT == S_IFREG else {
            close(fd)
            throw .notRegularFile(path: shown, kind: RegularFile.kind(status.st_mode))
        }
        descriptor = fd
        size = Int64(status.st_size)
    }

    deinit { close(descriptor) }

    /// Every byte, refused unread when the file is larger than `limit`.
    package func readAll(limit: Int64) throws(RunFolderError) -> [UInt8] {
        guard size <= limit else { throw .tooLarge(path: path, bytes: size, limit: limit) }
        var bytes: [UInt8] = []
        try read(from: 0, limit: limit) { bytes.append(contentsOf: $0) }
        return bytes
    }

    /// Calls `body` with the file's bytes from `offset`, piece by piece (at
    /// most `limit` bytes: a file that grew past it is refused).
    package func read(from offset: Int64 = 0, limit: Int64, _ body: (UnsafeRawBufferPointer) -> Void) throws(RunFolderError) {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 16)
        defer { buffer.deallocate() }
        var position = offset
        while true {
            let count = pread(descriptor, buffer.baseAddress, buffer.count, off_t(position))
            if count < 0 {
                if errno == EINTR { continue }
                throw .unreadable(path: path, reason: String(cString: strerror(errno)))
            }
            if count == 0 { return }
            position += Int64(count)
            guard position - offset <= limit else { throw .tooLarge(path: path, bytes: position - offset, limit: limit) }
            body(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
        }
    }

    /// Whether `name` in `directory` is a symbolic link (not followed).
    static func isLink(_ name: String, in directory: Int32) -> Bool {
        var status = stat()
        return fstatat(directory, name, &status, AT_SYMLINK_NOFOLLOW) == 0 && status.st_mode & S_IFMT == S_IFLNK
    }

    /// What a file that is not regular is, for messages.
    static func kind(_ mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFDIR: "a folder"
        case S_IFIFO: "a FIFO"
        case S_IFCHR: "a character device"
        case S_IFBLK: "a block device"
        case S_IFSOCK: "a socket"
        case S_IFLNK: "a symbolic link"
        default: "not a regular file"
        }
    }
}
