import CFFmpeg
import Synchronization

/// FFmpeg's log as VideoIO hears it. Nothing is printed (FFmpeg's lines would interleave with facepipe's
/// output; every failure reaches the caller as a `VideoError`), but an error a watched demuxer logs is
/// counted for it: a demuxer that meets damage it can read past logs it and goes on (Matroska's "element
/// exceeds containing master element", then a resync to the next cluster), so the frames it skipped are
/// lost without any call failing. `ContainerDemuxer` watches its own `AVFormatContext` from the end of its
/// header to its free; the count is per context, so demuxers on other threads do not see each other's errors.
enum FFmpegLog {
    /// Errors logged so far by each watched context (keyed by its address).
    private static let errors = Mutex<[UInt: Int]>([:])

    /// Replaces FFmpeg's printing callback (once, from `FFmpegLibrary`).
    static func install() {
        av_log_set_callback { context, level, _, _ in
            // The low byte is the level (FFmpeg keeps colour hints above it); PANIC, FATAL and ERROR count.
            guard let context, level & 0xFF <= AV_LOG_ERROR else { return }
            let key = UInt(bitPattern: context)
            FFmpegLog.errors.withLock { counts in
                if let count = counts[key] { counts[key] = count + 1 }
            }
        }
    }

    /// Starts counting the errors logged with `context` (from zero).
    static func watch(_ context: UnsafeMutableRawPointer) {
        errors.withLock { $0[UInt(bitPattern: context)] = 0 }
    }

    /// Stops counting (before `context` is freed: its address may be reused).
    static func stopWatching(_ context: UnsafeMutableRawPointer) {
        _ = errors.withLock { $0.removeValue(forKey: UInt(bitPattern: context)) }
    }

    /// Errors logged with `context` since `watch(_:)`.
    static func errorCount(_ context: UnsafeMutableRawPointer) -> Int {
        errors.withLock { $0[UInt(bitPattern: context)] ?? 0 }
    }
}
