import CFFmpeg

/// A failure reported by one of FFmpeg's libraries: the call that failed
/// and FFmpeg's own sentence for its error code.
public struct FFmpegError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What facepipe asked FFmpeg to do (`open the container`, `decode a frame`).
    public let operation: String
    /// FFmpeg's error code (a negative AVERROR value).
    public let code: Int32

    public init(_ operation: String, code: Int32) {
        self.operation = operation
        self.code = code
    }

    /// True for the end of a stream (`AVERROR_EOF`).
    public var isEndOfFile: Bool { code == Self.endOfFileCode }
    /// `AVERROR_EOF`.
    public static var endOfFileCode: Int32 { facepipe_averror_eof }
    /// True when FFmpeg needs more input (or output drained) before it can go on (`AVERROR(EAGAIN)`).
    public var isTryAgain: Bool { code == facepipe_averror_eagain }

    /// FFmpeg's text for the code (`Invalid data found when processing input`).
    public var reason: String {
        var buffer = [CChar](repeating: 0, count: 256)
        if av_strerror(code, &buffer, buffer.count) < 0 { return "error \(code)" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    public var description: String { "\(operation): \(reason)" }

    /// Throws when `code` is negative (FFmpeg's convention for a failure).
    @discardableResult
    public static func check(_ code: Int32, _ operation: @autoclosure () -> String) throws(FFmpegError) -> Int32 {
        if code < 0 { throw FFmpegError(operation(), code: code) }
        return code
    }
}
