#if canImport(Glibc)
import Glibc
import RunFolders
#endif

/// One annotation file of an export written piece by piece as the images
/// come (``ExportDestination/streamed(_:)``): text gathered up to
/// ``flushBytes`` then written, the file renamed into place by ``commit()``
/// (a reader sees the whole file or none; left uncommitted, it is removed).
/// `annotations.json` of a hundred million images is never one string.
final class StreamedExportFile {
    static let flushBytes = 1 << 20
    private let file: StreamedFile
    private var pending: [UInt8] = []

    init(_ file: StreamedFile) {
        self.file = file
        pending.reserveCapacity(Self.flushBytes)
    }

    func append(_ text: String) throws(ExportError) {
        pending.append(contentsOf: text.utf8)
        if pending.count >= Self.flushBytes { try flush() }
    }

    /// Writes what is gathered, then renames the file over its name.
    func commit() throws(ExportError) {
        try flush()
        do { try file.commit() } catch { throw .cannotWrite(path: file.path, reason: "\(error)") }
    }

    private func flush() throws(ExportError) {
        var done = 0
        while done < pending.count {
            let wrote = pending.withUnsafeBytes { write(file.descriptor, $0.baseAddress! + done, $0.count - done) }
            if wrote < 0 && errno == EINTR { continue }
            guard wrote > 0 else {
                throw .cannotWrite(path: file.path, reason: wrote < 0 ? OSReason(errno: errno).description : "nothing written")
            }
            done += wrote
        }
        pending.removeAll(keepingCapacity: true)
    }
}
