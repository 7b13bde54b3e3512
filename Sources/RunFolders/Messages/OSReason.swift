import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Why the OS refused a file operation, as the OS says it (`strerror`'s
/// text: "No such file or directory", "Permission denied"), never
/// Foundation's "The operation could not be completed". The one place that
/// turns an errno, a `POSIXError` or a Foundation file error (`CocoaError`,
/// which carries the errno as its underlying error and the path it was
/// about) into message text; messages put the path they are about before it.
package struct OSReason: Sendable, Equatable, CustomStringConvertible {
    /// The reason, without a path unless the OS error was about another
    /// path than the one the message names (then `other path: reason`).
    package let description: String

    private init(text: String) {
        description = text
    }

    /// `strerror(code)`.
    package init(errno code: Int32) {
        self.init(text: String(cString: strerror(code)))
    }

    /// The reason of `error`. `path`: the path the message names; when the
    /// error was about another one (a missing parent folder, say), that
    /// path is put before the reason.
    package init(_ error: any Error, about path: String? = nil) {
        if let posix = error as? POSIXError {
            self.init(errno: posix.code.rawValue)
            return
        }
        let ns = error as NSError
        if ns.domain == NSPOSIXErrorDomain {
            self.init(errno: Int32(truncatingIfNeeded: ns.code))
            return
        }
        guard ns.domain == NSCocoaErrorDomain else {
            self.init(text: "\(error)")
            return
        }
        // On Linux the underlying error is stored as a Swift `Error` (`as? NSError` fails).
        let underlying = (ns.userInfo[NSUnderlyingErrorKey] as? any Error).map { $0 as NSError }
        let code = underlying.flatMap { $0.domain == NSPOSIXErrorDomain ? Int32(truncatingIfNeeded: $0.code) : nil }
            ?? Self.errno(of: CocoaError.Code(rawValue: ns.code))
        let reason = code.map { String(cString: strerror($0)) } ?? "error \(ns.code) of the file system"
        let filePath = ns.userInfo[NSFilePathErrorKey] as? String ?? (ns.userInfo[NSURLErrorKey] as? URL)?.path
        if let filePath, let path, Self.normalized(filePath) != Self.normalized(path) {
            self.init(text: filePath + ": " + reason)
        } else {
            self.init(text: reason)
        }
    }

    /// The errno a Foundation file error code stands for, when it has no underlying error.
    private static func errno(of code: CocoaError.Code) -> Int32? {
        switch code {
        case .fileNoSuchFile, .fileReadNoSuchFile: ENOENT
        case .fileReadNoPermission, .fileWriteNoPermission: EACCES
        case .fileWriteFileExists: EEXIST
        case .fileWriteOutOfSpace: ENOSPC
        case .fileWriteVolumeReadOnly: EROFS
        case .fileReadTooLarge: EFBIG
        default: nil
        }
    }

    private static func normalized(_ path: String) -> String {
        URL(fileURLWithPath: path).standardizedFileURL.path
    }
}
