/// A file or folder the OS would not open, read or create, with its path and the
/// OS's reason (``OSReason``): `photos/a.jpg: Permission denied`. What a
/// Foundation file call's error becomes before it reaches a message.
package struct FileFailure: Error, Sendable, Equatable, CustomStringConvertible {
    package let path: String
    package let reason: OSReason

    package init(path: String, reason: OSReason) {
        self.path = path
        self.reason = reason
    }

    /// `error`, thrown by a Foundation call on `path`.
    package init(path: String, _ error: any Error) {
        self.init(path: path, reason: OSReason(error, about: path))
    }

    /// Runs `body`, a Foundation call on `path`, turning its error into an ``FileFailure``.
    package static func at<T>(_ path: String, _ body: () throws -> T) throws(FileFailure) -> T {
        do { return try body() } catch { throw FileFailure(path: path, error) }
    }

    package var description: String { "\(path): \(reason)" }
}
