/// Why `report.html` could not be built from an output folder.
package enum ReportError: Error, Sendable, Equatable, CustomStringConvertible {
    /// `manifest.csv` or `run.json` is missing or unreadable.
    case unreadable(file: String, reason: String)
    /// `manifest.csv` is not the manifest facepipe writes (header, quoting, row width).
    case malformedManifest(line: Int, reason: String)
    /// `report.html` could not be written.
    case cannotWrite(path: String, reason: String)

    package var description: String {
        switch self {
        case let .unreadable(file, reason): "cannot read \(file): \(reason)"
        case let .malformedManifest(line, reason): "manifest.csv line \(line): \(reason)"
        case let .cannotWrite(path, reason): "cannot write \(path): \(reason)"
        }
    }
}
