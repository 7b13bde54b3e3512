#if canImport(Glibc)
import Glibc
#endif

/// Reads a `VideoInput` at its own position: `pread` on the caller's descriptor (whose offset never moves)
/// or a copy-free view of the in-memory bytes. The only way FFmpeg gets container bytes.
final class VideoInputReader {
    let input: VideoInput
    let name: String
    /// Total size in bytes (fixed when the reader is made).
    let size: Int64
    private(set) var position: Int64 = 0
    /// Bytes handed out so far.
    private(set) var bytesRead: Int64 = 0
    /// Set when a read was asked for at or past the end (cleared with `resetEndFlag()`).
    private(set) var readPastEnd = false
    /// The errno of the last failed `pread`, if any.
    private(set) var lastErrno: Int32 = 0

    init(_ input: VideoInput, name: String) throws(VideoError) {
        self.input = input
        self.name = name
        switch input {
        case .bytes(let bytes):
            size = Int64(bytes.count)
        case .fileDescriptor(let fd):
            var status = stat()
            guard fstat(fd, &status) == 0 else { throw .unreadable(name, errno: errno) }
            guard (status.st_mode & S_IFMT) == S_IFREG else { throw .unreadable(name, errno: EINVAL) }
            size = Int64(status.st_size)
        }
    }

    /// Up to `count` bytes at the current position into `buffer`; 0 at the end, -1 on a read error.
    func read(into buffer: UnsafeMutableRawPointer, count: Int) -> Int {
        guard count > 0 else { return 0 }
        guard position < size else {
            readPastEnd = true
            return 0
        }
        let wanted = Int(min(Int64(count), size - position))
        let got: Int
        switch input {
        case .bytes(let bytes):
            bytes.withUnsafeBytes { all in
                buffer.copyMemory(from: all.baseAddress! + Int(position), byteCount: wanted)
            }
            got = wanted
        case .fileDescriptor(let fd):
            var done = 0
            while done < wanted {
                let n = pread(fd, buffer + done, wanted - done, off_t(position) + off_t(done))
                if n < 0 {
                    if errno == EINTR { continue }
                    lastErrno = errno
                    return -1
                }
                if n == 0 { break }  // the file shrank under us: the caller sees a short read
                done += n
            }
            got = done
            if got == 0 { readPastEnd = true }
        }
        position += Int64(got)
        bytesRead += Int64(got)
        return got
    }

    /// Moves the position (`SEEK_SET`, `SEEK_CUR`, `SEEK_END`); nil for a negative result or unknown `whence`.
    func seek(to offset: Int64, whence: Int32) -> Int64? {
        guard let target = seekTarget(offset, whence: whence, position: position, size: size) else { return nil }
        position = target
        return target
    }

    /// The first bytes (for sniffing), read without moving the position.
    func prefix(_ count: Int) -> [UInt8] {
        let saved = position
        defer { position = saved }
        position = 0
        var head = [UInt8](repeating: 0, count: count)
        let n = head.withUnsafeMutableBytes { read(into: $0.baseAddress!, count: count) }
        bytesRead -= Int64(max(n, 0))
        readPastEnd = false
        return Array(head.prefix(max(n, 0)))
    }

    func resetEndFlag() { readPastEnd = false }
}
