#if canImport(Glibc)
import Glibc
#endif

/// A file of the output folder open for positioned reads and writes: a
/// ``RecordPack``'s index or segment, or one of ``ClaimedNames``' nameless
/// files. Owns the descriptor and closes it; opened only through
/// ``OutputDirectory`` (relative to the output folder's handle, never
/// through a link, never a file with other hard links).
package final class PackFile: @unchecked Sendable {
    // @unchecked: the descriptor never changes; pread and pwrite are
    // thread-safe, and every caller holds its pack's lock anyway.
    let descriptor: Int32
    /// The path, for messages.
    package let path: String

    struct Failure: Error, CustomStringConvertible {
        let path: String
        let reason: String
        var description: String { "\(path): \(reason)" }
    }

    /// Opens (creating when missing) `name` in `folder` for reading and writing.
    package init(_ name: String, in folder: OutputDirectory) throws {
        descriptor = try folder.openPrivateFile(name)
        path = folder.path + "/" + name
    }

    /// A nameless file in `folder` (``OutputDirectory/anonymousFile()``), gone when closed.
    package init(anonymousIn folder: OutputDirectory) throws {
        descriptor = try folder.anonymousFile()
        path = folder.path + " (a nameless file)"
    }

    deinit { close(descriptor) }

    /// The file's size now.
    func size() throws -> Int {
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw failure(errno) }
        return Int(status.st_size)
    }

    /// Sets the file's size (a longer file reads as zeros past the old end).
    func resize(to size: Int) throws {
        guard ftruncate(descriptor, off_t(size)) == 0 else { throw failure(errno) }
    }

    /// Fills `buffer` from `offset`; false when the file ends first.
    package func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int) throws -> Bool {
        try Self.read(descriptor, into: buffer, at: offset, path: path)
    }

    /// `count` bytes from `offset`, or nil when the file ends first.
    package func bytes(at offset: Int, count: Int) throws -> [UInt8]? {
        try Self.bytes(descriptor, at: offset, count: count, path: path)
    }

    /// Writes all of `bytes` at `offset`.
    package func write(_ bytes: UnsafeRawBufferPointer, at offset: Int) throws {
        var done = 0
        while done < bytes.count {
            let count = pwrite(descriptor, bytes.baseAddress! + done, bytes.count - done, off_t(offset + done))
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { throw failure(count < 0 ? errno : ENOSPC) }
            done += count
        }
    }

    package func write(_ bytes: [UInt8], at offset: Int) throws {
        try bytes.withUnsafeBytes { (raw) in try write(raw, at: offset) }
    }

    package static func read(_ descriptor: Int32, into buffer: UnsafeMutableRawBufferPointer, at offset: Int, path: String) throws -> Bool {
        var done = 0
        while done < buffer.count {
            let count = pread(descriptor, buffer.baseAddress! + done, buffer.count - done, off_t(offset + done))
            if count < 0, errno == EINTR { continue }
            if count < 0 { throw Failure(path: path, reason: String(cString: strerror(errno))) }
            if count == 0 { return false }
            done += count
        }
        return true
    }

    package static func bytes(_ descriptor: Int32, at offset: Int, count: Int, path: String) throws -> [UInt8]? {
        var bytes = [UInt8](repeating: 0, count: count)
        let whole = try bytes.withUnsafeMutableBytes { (raw) in try read(descriptor, into: raw, at: offset, path: path) }
        return whole ? bytes : nil
    }

    private func failure(_ code: Int32) -> Failure {
        Failure(path: path, reason: String(cString: strerror(code)))
    }
}
