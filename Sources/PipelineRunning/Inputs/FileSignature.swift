import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The first bytes of an open file, which tell what it holds
/// (``ContentKind``). Read with `pread`, so the file's position is left
/// where it was.
enum FileSignature {
    static let byteCount = ContentKind.sniffedBytes

    /// Up to `byteCount` bytes from the start of `descriptor` (fewer in a
    /// shorter file); nil, with `errno` set, when the read fails.
    static func read(_ descriptor: Int32) -> [UInt8]? {
        var bytes = [UInt8](repeating: 0, count: byteCount)
        let count = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, 0) }
        guard count >= 0 else { return nil }
        bytes.removeLast(bytes.count - count)
        return bytes
    }

    /// What a file that is not a regular file is, for a message: `a FIFO`,
    /// `a character device`…, from its `fstat`.
    static func kind(of status: stat) -> String {
        switch status.st_mode & S_IFMT {
        case S_IFIFO: "a FIFO"
        case S_IFCHR: "a character device"
        case S_IFBLK: "a block device"
        case S_IFSOCK: "a socket"
        case S_IFDIR: "a folder"
        case S_IFLNK: "a symbolic link"
        case S_IFREG: "a regular file"
        default: "of an unknown kind"
        }
    }
}
