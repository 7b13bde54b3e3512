import ArchiveIO
import Foundation

/// Writes files into one tar archive (deterministic headers), in the order given.
final class TarSink: OutputSink {
    private let writer: TarWriter

    init(path: String) throws {
        writer = try TarWriter(path: path)
    }

    func write(_ bytes: [UInt8], to relativePath: String) throws {
        try SafeOutputPath.checkRelative(relativePath)
        try writer.add(path: relativePath, data: bytes)
    }

    func finish() throws {
        try writer.finish()
    }
}
