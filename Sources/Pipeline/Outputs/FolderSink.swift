import Foundation

/// Writes files under a root folder, refusing any path that could leave it.
final class FolderSink: OutputSink {
    let root: URL

    init(root: URL) { self.root = root }

    func write(_ bytes: [UInt8], to relativePath: String) throws {
        let url = try OutputLocation.resolve(relativePath, under: root)
        try AtomicFile.write(bytes, to: url)
    }

    func finish() throws {}
}
