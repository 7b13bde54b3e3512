import ArchiveIO
import Foundation

/// Where image and JSON files go: a folder under DIR or an output tar.
/// Paths are relative to DIR and already sanitized; sinks check again.
protocol OutputSink: AnyObject {
    func write(_ bytes: [UInt8], to relativePath: String) throws
    func finish() throws
}
