#if canImport(Glibc)
import Glibc
#endif

/// A file ``OutputDirectory/createFile(_:)`` created, open for writing:
/// the manifest (appended row by row) or the output tar (libarchive writes
/// to ``descriptor``). Owns the descriptor; closes it in `deinit`. Failures
/// name the path and the OS error.
package final class OutputFile {
    /// The file's path, for messages.
    package let path: String
    /// Valid until the file is closed; never closed by its users.
    package let descriptor: Int32
    private var isClosed = false

    init(path: String, descriptor: Int32) {
        self.path = path
        self.descriptor = descriptor
    }

    deinit { if !isClosed { Glibc.close(descriptor) } }

    /// Writes `bytes` at the end of what was written so far.
    package func append(_ bytes: [UInt8]) throws(OutputDirectory.Failure) {
        let code = bytes.withUnsafeBytes { OutputDirectory.writeAll($0, to: descriptor) }
        if let code { throw failure(code) }
    }

    /// Cuts the file to its first `length` bytes and writes on from there.
    package func truncate(to length: Int) throws(OutputDirectory.Failure) {
        guard ftruncate(descriptor, off_t(length)) == 0, lseek(descriptor, off_t(length), SEEK_SET) >= 0 else {
            throw failure(errno)
        }
    }

    /// Closes the file; a delayed write error (NFS, quota) surfaces here.
    package func close() throws(OutputDirectory.Failure) {
        guard !isClosed else { return }
        isClosed = true
        if Glibc.close(descriptor) != 0 { throw failure(errno) }
    }

    private func failure(_ code: Int32) -> OutputDirectory.Failure {
        OutputDirectory.Failure(path: path, reason: String(cString: strerror(code)))
    }
}
