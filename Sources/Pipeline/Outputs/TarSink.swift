import ArchiveIO
import Foundation

/// Writes files into one tar archive (deterministic headers), in the order
/// given: `DIR/outputs.tar.partial`, created new with `O_NOFOLLOW | O_EXCL`
/// relative to DIR's handle (a stale partial file or a planted link there
/// is unlinked first, never written through), renamed to `outputs.tar` by
/// `finish()`. A sink dropped or abandoned before that removes its partial
/// file.
final class TarSink: OutputSink {
    static let fileName = "outputs.tar"
    static let partialName = "outputs.tar.partial"
    private let directory: OutputDirectory
    private let file: OutputFile
    private let writer: TarWriter
    private var isFinished = false

    init(directory: OutputDirectory) throws {
        self.directory = directory
        file = try directory.createFile(Self.partialName)
        do {
            writer = try TarWriter(fileDescriptor: file.descriptor, name: file.path)
        } catch {
            try? directory.removeItem(Self.partialName)
            throw error
        }
    }

    deinit {
        if !isFinished { try? directory.removeItem(Self.partialName) }
    }

    func write(_ bytes: [UInt8], to relativePath: String) throws {
        try SafeOutputPath.checkRelative(relativePath)
        try writer.add(path: relativePath, data: bytes)
    }

    func finish() throws {
        try writer.finish()
        try file.close()
        try directory.rename(Self.partialName, to: Self.fileName)
        isFinished = true
    }

    /// The archive cannot be completed: its partial file is removed, and an
    /// `outputs.tar` left by an earlier run too (the manifest that listed
    /// its files is being rewritten). Every file written is gone.
    func abandon() -> Bool {
        try? directory.removeItem(Self.partialName)
        try? directory.removeItem(Self.fileName)
        isFinished = true
        return true
    }
}
