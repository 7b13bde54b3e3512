import Foundation
import RunFolders

/// Writes files under the output folder through ``OutputDirectory``: paths
/// that could leave it are refused, and links planted below it are never
/// followed.
final class FolderSink: OutputSink {
    let directory: OutputDirectory

    init(directory: OutputDirectory) {
        self.directory = directory
    }

    /// A file under its path; nil: it is in no tar.
    @discardableResult
    func write(_ bytes: [UInt8], to relativePath: String) throws -> TarMember? {
        try bytes.withUnsafeBytes { try directory.write($0, to: relativePath) }
        return nil
    }

    func finish() throws {}

    /// Every file written so far is whole and stays.
    func abandon() -> Bool { false }
}
