#if canImport(Glibc)
import Glibc
#endif
import CFFmpeg

/// One `AVIOContext` whose reads, writes and seeks go to facepipe's own
/// callbacks, with its buffer: what `InputIOContext` and `OutputIOContext`
/// share. Owns both; frees the buffer the context holds at the end (FFmpeg
/// may have replaced the one it was given).
final class CustomIOContext {
    typealias Read = @convention(c) (UnsafeMutableRawPointer?, UnsafeMutablePointer<UInt8>?, Int32) -> Int32
    typealias Write = @convention(c) (UnsafeMutableRawPointer?, UnsafeMutablePointer<UInt8>?, Int32) -> Int32
    typealias Seek = @convention(c) (UnsafeMutableRawPointer?, Int64, Int32) -> Int64

    let context: UnsafeMutablePointer<AVIOContext>

    /// `opaque` is handed to the callbacks; its owner keeps it alive as long as this context.
    /// `purpose`: `read` or `write`, for the allocation failure's message.
    init(bufferSize: Int32, opaque: UnsafeMutableRawPointer, read: Read?, write: Write?, seek: Seek,
         purpose: String) throws(VideoError) {
        guard let buffer = av_malloc(Int(bufferSize)) else {
            throw .ffmpeg(FFmpegError("allocate the \(purpose) buffer", code: facepipe_averror_enomem))
        }
        guard let context = avio_alloc_context(buffer.assumingMemoryBound(to: UInt8.self), bufferSize,
                                               write == nil ? 0 : 1, opaque, read, write, seek)
        else {
            av_free(buffer)
            throw .ffmpeg(FFmpegError("allocate the \(purpose) context", code: facepipe_averror_enomem))
        }
        self.context = context
    }

    deinit {
        av_freep(&context.pointee.buffer)
        var pointer: UnsafeMutablePointer<AVIOContext>? = context
        avio_context_free(&pointer)
    }
}

/// Where a seek lands (`SEEK_SET`, `SEEK_CUR`, `SEEK_END` from `position` in `size` bytes); nil for a
/// negative or overflowing result or another `whence`. Reads and writes seek the same way.
func seekTarget(_ offset: Int64, whence: Int32, position: Int64, size: Int64) -> Int64? {
    let base: Int64
    switch whence {
    case SEEK_SET: base = 0
    case SEEK_CUR: base = position
    case SEEK_END: base = size
    default: return nil
    }
    let (target, overflow) = base.addingReportingOverflow(offset)
    guard !overflow, target >= 0 else { return nil }
    return target
}
