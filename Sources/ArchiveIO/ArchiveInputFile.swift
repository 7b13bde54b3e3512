import CArchive
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The bytes under a ``TarReader``: a file descriptor that libarchive reads
/// through this type's callbacks, and an observer that sees every byte of the
/// file once, in file order, as libarchive reads it.
///
/// A regular file is seekable (libarchive's zip reader seeks to the central
/// directory); a pipe, FIFO or terminal is read strictly forward. The observer
/// gets the longest prefix read so far: bytes read out of order (after a seek
/// forward) are passed on only when reading reaches them in order, or by
/// ``readToEnd(streamLimit:)``. So for a tar, which libarchive reads forward, each byte is
/// read once and observed as it goes by.
final class ArchiveInputFile {
    /// Where the bytes come from, for messages (`-` for standard input).
    let path: String
    private let descriptor: Int32
    private let ownsDescriptor: Bool
    let isSeekable: Bool
    /// Bytes from the starting offset to the end when the input is a regular
    /// file (known before reading: progress's total); nil for a pipe or terminal.
    let size: Int64?
    private let buffer: UnsafeMutableRawBufferPointer
    private let observer: ((UnsafeRawBufferPointer) -> Void)?
    /// File offset of the next `read`.
    private var position: Int64 = 0
    /// Bytes from the start of the file handed to the observer.
    private(set) var observedBytes: Int64 = 0
    /// The errno of the last failed read, if any.
    private(set) var readError: Int32?

    /// Opens `path` for reading (`O_RDONLY | O_CLOEXEC`); throws `.cannotOpen` with the OS reason.
    convenience init(path: String, blockSize: Int, observer: ((UnsafeRawBufferPointer) -> Void)?) throws(ArchiveError) {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw .cannotOpen(archive: path, reason: String(cString: strerror(errno))) }
        var status = stat()
        if fstat(fd, &status) == 0 && (status.st_mode & S_IFMT) == S_IFDIR {
            close(fd)
            throw .cannotOpen(archive: path, reason: String(cString: strerror(EISDIR)))
        }
        self.init(descriptor: fd, ownsDescriptor: true, path: path, blockSize: blockSize, observer: observer)
    }

    /// Reads `descriptor` from its current offset; closes it in `deinit` only when `ownsDescriptor`.
    init(descriptor: Int32, ownsDescriptor: Bool, path: String, blockSize: Int, observer: ((UnsafeRawBufferPointer) -> Void)?) {
        self.descriptor = descriptor
        self.ownsDescriptor = ownsDescriptor
        self.path = path
        self.observer = observer
        var status = stat()
        let isRegular = fstat(descriptor, &status) == 0 && (status.st_mode & S_IFMT) == S_IFREG
        let offset = isRegular ? Int64(lseek(descriptor, 0, SEEK_CUR)) : -1
        isSeekable = isRegular && offset == 0
        size = isRegular && offset >= 0 ? max(Int64(status.st_size) - offset, 0) : nil
        buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: blockSize, alignment: 64)
    }

    deinit {
        buffer.deallocate()
        if ownsDescriptor { close(descriptor) }
    }

    /// Hands this file to `archive` (a handle from `archive_read_new`) and opens it.
    func openArchive(_ archive: OpaquePointer) -> Int32 {
        archive_read_set_callback_data(archive, Unmanaged.passUnretained(self).toOpaque())
        archive_read_set_read_callback(archive) { _, client, block in
            let file = Unmanaged<ArchiveInputFile>.fromOpaque(client!).takeUnretainedValue()
            return file.readBlock(into: block!)
        }
        if isSeekable {
            archive_read_set_seek_callback(archive) { _, client, offset, whence in
                let file = Unmanaged<ArchiveInputFile>.fromOpaque(client!).takeUnretainedValue()
                return file.seek(offset, whence: whence)
            }
        }
        return archive_read_open1(archive)
    }

    /// Reads what libarchive left unread, up to the end of the file, through
    /// the observer, so it has seen every byte. A stream (which may never
    /// end: `/dev/zero`) is read at most `streamLimit` bytes further; past
    /// that it throws `.cannotOpen` saying so. Throws `.cannotOpen` naming
    /// the OS reason when a read fails.
    func readToEnd(streamLimit: Int) throws(ArchiveError) {
        if isSeekable && position != observedBytes {
            guard lseek(descriptor, off_t(observedBytes), SEEK_SET) >= 0 else { throw failure(errno) }
            position = observedBytes
        }
        let start = observedBytes
        while true {
            if !isSeekable && observedBytes - start > Int64(streamLimit) {
                throw .cannotOpen(archive: path, reason: "more than \(streamLimit) bytes follow the end of the archive "
                    + "(a stream that does not end?); not read further, so it has no SHA-256")
            }
            let count = readOnce()
            if count < 0 { throw failure(readError ?? EIO) }
            if count == 0 { return }
        }
    }

    private func failure(_ code: Int32) -> ArchiveError {
        .cannotOpen(archive: path, reason: "reading failed: \(String(cString: strerror(code)))")
    }

    private func readBlock(into block: UnsafeMutablePointer<UnsafeRawPointer?>) -> Int {
        block.pointee = UnsafeRawPointer(buffer.baseAddress)
        return readOnce()
    }

    /// One `read(2)` into the buffer (retried on EINTR), observed if it extends the observed prefix.
    private func readOnce() -> Int {
        var count: Int
        repeat {
            count = read(descriptor, buffer.baseAddress, buffer.count)
        } while count < 0 && errno == EINTR
        guard count >= 0 else {
            readError = errno
            return -1
        }
        let start = position
        position += Int64(count)
        if let observer, start <= observedBytes, position > observedBytes {
            let skip = Int(observedBytes - start)
            observer(UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(buffer)[skip..<count]))
        }
        observedBytes = max(observedBytes, start <= observedBytes ? position : observedBytes)
        return count
    }

    private func seek(_ offset: Int64, whence: Int32) -> Int64 {
        let result = lseek(descriptor, off_t(offset), whence)
        guard result >= 0 else { return Int64(ARCHIVE_FATAL) }
        position = Int64(result)
        return position
    }
}
