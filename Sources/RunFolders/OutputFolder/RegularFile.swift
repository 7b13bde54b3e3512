import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A regular file open for reading, and nothing else: opened with
/// `O_NONBLOCK` (a FIFO or a device cannot make the open wait) and, unless
/// the caller follows links, `O_NOFOLLOW` (a link as the last component is
/// refused), then checked with `fstat` before a byte is read (after
/// opening, not before, so a file swapped for something else in between is
/// refused). Every read is a `pread` at an explicit offset, so one open
/// file serves several readers (a video decoder and the digest of its
/// input). Owns its descriptor and closes it when the last user lets go.
package final class RegularFile: Sendable {
    package let descriptor: Int32
    /// The size `fstat` gave when it was opened.
    package let size: Int64
    /// The path as asked for, for messages.
    package let path: String

    /// Opens `name` relative to the folder `directory` (`AT_FDCWD`: the
    /// current folder, or `name` is absolute), refusing a link.
    package convenience init(_ name: String, in directory: Int32 = AT_FDCWD, shownAs path: String? = nil) throws(RunFolderError) {
        try self.init(Array(name.utf8), in: directory, followingLinks: false, shownAs: path ?? name)
    }

    /// Opens the file at `path`, bytes as the OS knows them (not
    /// necessarily UTF-8). `followingLinks`: true for a file named on the
    /// command line, false for one found in a folder input (a link planted
    /// there since the folder was listed is refused).
    package convenience init(pathBytes path: [UInt8], followingLinks: Bool) throws(RunFolderError) {
        try self.init(path, in: AT_FDCWD, followingLinks: followingLinks, shownAs: String(decoding: path, as: UTF8.self))
    }

    private init(_ name: [UInt8], in directory: Int32, followingLinks: Bool, shownAs shown: String) throws(RunFolderError) {
        path = shown
        let flags = O_RDONLY | O_NONBLOCK | O_CLOEXEC | (followingLinks ? 0 : O_NOFOLLOW)
        let fd = Self.withCString(name) { openat(directory, $0, flags) }
        guard fd >= 0 else {
            let code = errno
            if !followingLinks && (code == ELOOP || Self.isLink(name, in: directory)) { throw .symbolicLink(path: shown) }
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
            throw .notRegularFile(path: shown, kind: Self.kind(status.st_mode))
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

    /// The first `count` bytes (fewer in a shorter file).
    package func prefix(_ count: Int) throws(RunFolderError) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        let read = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, count, 0) }
        guard read >= 0 else { throw .unreadable(path: path, reason: String(cString: strerror(errno))) }
        return Array(bytes.prefix(read))
    }

    /// SHA-256 and size of the whole file, read piece by piece.
    package func digest() throws(RunFolderError) -> InputDigest {
        let hash = RunningSHA256()
        try read(limit: .max) { hash.update($0) }
        return hash.finalize()
    }

    /// Whether `name` in `directory` is a symbolic link (not followed).
    private static func isLink(_ name: [UInt8], in directory: Int32) -> Bool {
        var status = stat()
        return withCString(name) { fstatat(directory, $0, &status, AT_SYMLINK_NOFOLLOW) } == 0 && status.st_mode & S_IFMT == S_IFLNK
    }

    /// `body` with `name` as a C string (a NUL in it ends it, as for a `String`).
    private static func withCString<T>(_ name: [UInt8], _ body: (UnsafePointer<CChar>) -> T) -> T {
        (name + [0]).withUnsafeBufferPointer { body(UnsafeRawPointer($0.baseAddress!).assumingMemoryBound(to: CChar.self)) }
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
