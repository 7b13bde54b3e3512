import CFFmpeg

/// Process-wide FFmpeg settings VideoIO makes once, before its first call into the libraries.
enum FFmpegLibrary {
    /// FFmpeg's own log lines would interleave with facepipe's output: every failure reaches the caller as a
    /// `VideoError` instead, so the libraries are told to stay quiet and their log goes to `FFmpegLog`, which
    /// prints nothing and counts a demuxer's errors.
    static let prepared: Void = {
        av_log_set_level(AV_LOG_QUIET)
        FFmpegLog.install()
    }()

    static func prepare() { _ = prepared }
}
