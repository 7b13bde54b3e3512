import ArchiveIO
import Foundation

/// Where image and JSON files go: a folder under DIR or an output tar.
/// Paths are relative to DIR and already sanitized; sinks check again.
protocol OutputSink: AnyObject {
    /// An entry's files follow (``TarSink`` may start its next tar here,
    /// so that one entry's files stay in one tar).
    func beginEntry() throws
    func write(_ bytes: [UInt8], to relativePath: String) throws
    /// Completes the outputs after the last write.
    func finish() throws
    /// The run stopped at a write failure and will not call `finish()`.
    /// Returns true when the files written so far are gone with it (so the
    /// manifest must not list them).
    func abandon() -> Bool
}

extension OutputSink {
    func beginEntry() throws {}
}
