import ArchiveIO
import Foundation
import RunFolders

/// Where image and JSON files go: a folder under DIR or an output tar.
/// Paths are relative to DIR and already sanitized; sinks check again.
protocol OutputSink: AnyObject {
    /// An entry's files follow (``TarSink`` may start its next tar here,
    /// so that one entry's files stay in one tar).
    func beginEntry() throws
    /// Writes one file; returns where it went when that is a tar.
    @discardableResult
    func write(_ bytes: [UInt8], to relativePath: String) throws -> TarMember?
    /// A file of an entry `--resume` reuses, as its completion record names
    /// it: already in place (a file under DIR, checked), or a member of a
    /// finished tar, which ``TarSink`` counts where it is or adds again.
    /// Returns the output as it now stands.
    func resume(_ output: CompletionRecord.Output) throws -> CompletionRecord.Output
    /// Completes the outputs after the last write.
    func finish() throws
    /// The run stopped at a write failure and will not call `finish()`.
    /// Returns true when the files written so far are gone with it (so the
    /// manifest must not list them).
    func abandon() -> Bool
}

extension OutputSink {
    func beginEntry() throws {}
    func resume(_ output: CompletionRecord.Output) throws -> CompletionRecord.Output { output }
}
