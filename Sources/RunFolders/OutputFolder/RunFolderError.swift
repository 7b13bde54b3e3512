/// Why a file of a run folder (or an input run.json names) was not read.
/// Each case names the file as it was asked for.
package enum RunFolderError: Error, Sendable, Equatable, CustomStringConvertible {
    /// An absolute path, a `..` or `.` component, an empty component or a NUL.
    case outsideFolder(path: String)
    /// A component of the path is a symbolic link.
    case symbolicLink(path: String)
    /// The file is a folder, a FIFO, a device or a socket.
    case notRegularFile(path: String, kind: String)
    /// The file is larger than the reader takes.
    case tooLarge(path: String, bytes: Int64, limit: Int64)
    /// The OS refused (missing file, permissions), with its reason.
    case unreadable(path: String, reason: String)

    /// The path the error is about.
    package var path: String {
        switch self {
        case .outsideFolder(let path), .symbolicLink(let path), .notRegularFile(let path, _),
             .tooLarge(let path, _, _), .unreadable(let path, _): path
        }
    }

    /// Why, without the path.
    package var reason: String {
        switch self {
        case .outsideFolder: "the path is absolute or has a '..', '.' or empty component; only paths inside the folder are read"
        case .symbolicLink: "a component is a symbolic link, which is not followed"
        case .notRegularFile(_, let kind): "it is \(kind), not a regular file"
        case .tooLarge(_, let bytes, let limit): "\(bytes) bytes, more than the \(limit) read"
        case .unreadable(_, let reason): reason
        }
    }

    package var description: String { "\(path): \(reason)" }
}
