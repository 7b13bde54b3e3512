import ArchiveIO
import Foundation

/// Where image and JSON files go: a folder under DIR or an output tar.
/// Paths are relative to DIR and already sanitized; sinks check again.
protocol OutputSink: AnyObject {
    func write(_ bytes: [UInt8], to relativePath: String) throws
    func finish() throws
}

/// Writes files under a root folder, refusing any path that could leave it.
final class FolderSink: OutputSink {
    let root: URL

    init(root: URL) { self.root = root }

    func write(_ bytes: [UInt8], to relativePath: String) throws {
        let url = try OutputLocation.resolve(relativePath, under: root)
        try AtomicFile.write(Data(bytes), to: url)
    }

    func finish() throws {}
}

/// Containment check for relative output paths (defence in depth behind the sanitizer).
enum OutputLocation {
    struct Escape: Error, CustomStringConvertible {
        let path: String
        var description: String { "refusing to write \(path): not a plain relative path inside the output folder" }
    }

    static func resolve(_ relativePath: String, under root: URL) throws -> URL {
        let components = relativePath.split(separator: "/", omittingEmptySubsequences: false)
        guard !relativePath.isEmpty, !relativePath.hasPrefix("/"),
              !components.contains(where: { $0.isEmpty || $0 == "." || $0 == ".." }),
              !relativePath.utf8.contains(0) else {
            throw Escape(path: relativePath)
        }
        return root.appendingPathComponent(relativePath)
    }
}

/// Writes files into one tar archive (deterministic headers), in the order given.
final class TarSink: OutputSink {
    private let writer: TarWriter

    init(path: String) throws {
        writer = try TarWriter(path: path)
    }

    func write(_ bytes: [UInt8], to relativePath: String) throws {
        _ = try OutputLocation.resolve(relativePath, under: URL(fileURLWithPath: "/"))
        try writer.add(path: relativePath, data: bytes)
    }

    func finish() throws {
        try writer.finish()
    }
}
