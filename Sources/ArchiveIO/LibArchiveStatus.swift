import CArchive
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// libarchive's status codes, translated in this one place for reading and writing.
enum LibArchiveStatus: Equatable {
    /// `ARCHIVE_OK`
    case ok
    /// `ARCHIVE_EOF`: no more headers.
    case endOfArchive
    /// `ARCHIVE_WARN`: the operation succeeded with a remark (e.g. a name that
    /// could not be converted); the result is usable.
    case warning
    /// `ARCHIVE_RETRY`: this operation failed but could be retried (a damaged header).
    case retry
    /// `ARCHIVE_FAILED`: this entry is lost, the archive may go on.
    case failed
    /// `ARCHIVE_FATAL` (or any unknown code): the handle is unusable.
    case fatal

    init(_ code: Int32) {
        switch code {
        case ARCHIVE_OK: self = .ok
        case ARCHIVE_EOF: self = .endOfArchive
        case ARCHIVE_WARN: self = .warning
        case ARCHIVE_RETRY: self = .retry
        case ARCHIVE_FAILED: self = .failed
        default: self = .fatal
        }
    }

    /// For functions that return a byte count or a negative status
    /// (`archive_read_data`, `archive_write_data`): nil for a count.
    init?(byteCountOrStatus result: Int) {
        guard result < 0 else { return nil }
        self.init(Int32(clamping: result))
    }

    /// Whether the handle's last error says the bytes are in no format libarchive reads.
    static func isUnrecognizedFormat(_ handle: OpaquePointer) -> Bool {
        archive_errno(handle) == EILSEQ && archive_format(handle) == 0
    }

    /// Whether the call did its work (possibly with a warning).
    var succeeded: Bool { self == .ok || self == .warning }

    /// libarchive's last message for `handle`, with the errno text when it adds something.
    static func message(of handle: OpaquePointer) -> String {
        let text = archive_error_string(handle).map { String(cString: $0) } ?? ""
        let code = archive_errno(handle)
        // libarchive's own codes (ARCHIVE_ERRNO_MISC = -1, _FILE_FORMAT = EILSEQ,
        // _PROGRAMMER = EINVAL) say nothing a system message would add.
        let system = code > 0 && code != EILSEQ && code != EINVAL ? String(cString: strerror(code)) : ""
        switch (text.isEmpty, system.isEmpty) {
        case (true, true): return "unknown libarchive error"
        case (false, true): return text
        case (true, false): return system
        case (false, false): return text.contains(system) ? text : "\(text) (\(system))"
        }
    }
}
