import CFFmpeg
import Synchronization

/// FFmpeg's log as VideoIO hears it. Nothing is printed (FFmpeg's lines would interleave with facepipe's
/// output; every failure reaches the caller as a `VideoError`), but an error a watched demuxer logs is
/// noted for it, with where it was reading: a demuxer that meets damage it can read past logs it and goes on (Matroska's "element
/// exceeds containing master element", then a resync to the next cluster), so the frames it skipped are
/// lost without any call failing. `ContainerDemuxer` watches its own `AVFormatContext` from the end of its
/// header to its free; the note is per context, so demuxers on other threads do not see each other's errors.
enum FFmpegLog {
    /// Where each watched context (keyed by its address) was reading when it first logged an error: nil
    /// for none yet.
    private static let errors = Mutex<[UInt: Int64?]>([:])

    /// Replaces FFmpeg's printing callback (once, from `FFmpegLibrary`).
    static func install() {
        av_log_set_callback { context, level, _, _ in
            // The low byte is the level (FFmpeg keeps colour hints above it); PANIC, FATAL and ERROR count.
            guard let context, level & 0xFF <= AV_LOG_ERROR else { return }
            let key = UInt(bitPattern: context)
            FFmpegLog.errors.withLock { offsets in
                guard let first = offsets[key], first == nil else { return }
                // A watched key is an AVFormatContext; the call comes from its own demuxer, on its thread.
                let format = context.assumingMemoryBound(to: AVFormatContext.self)
                guard let pb = format.pointee.pb else { return offsets[key] = 0 }
                offsets[key] = pb.pointee.pos - Int64(pb.pointee.buf_end - pb.pointee.buf_ptr)
            }
        }
    }

    /// Starts watching `context` (an `AVFormatContext`) for errors.
    static func watch(_ context: UnsafeMutableRawPointer) {
        errors.withLock { $0[UInt(bitPattern: context)] = .some(nil) }
    }

    /// Stops watching (before `context` is freed: its address may be reused).
    static func stopWatching(_ context: UnsafeMutableRawPointer) {
        _ = errors.withLock { $0.removeValue(forKey: UInt(bitPattern: context)) }
    }

    /// The byte offset of the input `context` was reading at when it first logged an error since
    /// `watch(_:)`; nil when it has not.
    static func firstErrorOffset(_ context: UnsafeMutableRawPointer) -> Int64? {
        errors.withLock { $0[UInt(bitPattern: context)] ?? nil }
    }
}
