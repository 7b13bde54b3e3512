#if canImport(Glibc)
import Glibc
#endif
import CFFmpeg

/// An `AVIOContext` that writes to the caller's descriptor with `pwrite` at its own offsets (so the muxer can go
/// back and fill in sizes) and never moves the descriptor's offset. Owns the context and its buffer.
final class OutputIOContext {
    final class Writer {
        let fd: Int32
        var position: Int64 = 0
        var size: Int64 = 0
        var lastErrno: Int32 = 0

        init(fd: Int32) { self.fd = fd }

        func write(_ buffer: UnsafeRawPointer, count: Int) -> Int32 {
            var done = 0
            while done < count {
                let n = pwrite(fd, buffer + done, count - done, off_t(position) + off_t(done))
                if n < 0 {
                    if errno == EINTR { continue }
                    lastErrno = errno
                    return -errno
                }
                done += n
            }
            position += Int64(count)
            size = max(size, position)
            return Int32(count)
        }

        func seek(to offset: Int64, whence: Int32) -> Int64 {
            let base: Int64
            switch whence {
            case SEEK_SET: base = 0
            case SEEK_CUR: base = position
            case SEEK_END: base = size
            default: return -Int64(EINVAL)
            }
            let (target, overflow) = base.addingReportingOverflow(offset)
            guard !overflow, target >= 0 else { return -Int64(EINVAL) }
            position = target
            return target
        }
    }

    let writer: Writer
    let context: UnsafeMutablePointer<AVIOContext>

    init(fd: Int32) throws(VideoError) {
        writer = Writer(fd: fd)
        let bufferSize: Int32 = 256 * 1024
        guard let buffer = av_malloc(Int(bufferSize)) else {
            throw .ffmpeg(FFmpegError("allocate the write buffer", code: facepipe_averror_enomem))
        }
        let opaque = Unmanaged.passUnretained(writer).toOpaque()
        guard let context = avio_alloc_context(
            buffer.assumingMemoryBound(to: UInt8.self), bufferSize, 1, opaque,
            nil,
            { opaque, buffer, size in
                Unmanaged<Writer>.fromOpaque(opaque!).takeUnretainedValue().write(buffer!, count: Int(size))
            },
            { opaque, offset, whence in
                let writer = Unmanaged<Writer>.fromOpaque(opaque!).takeUnretainedValue()
                if whence & AVSEEK_SIZE != 0 { return writer.size }
                return writer.seek(to: offset, whence: whence & ~AVSEEK_FORCE)
            })
        else {
            av_free(buffer)
            throw .ffmpeg(FFmpegError("allocate the write context", code: facepipe_averror_enomem))
        }
        self.context = context
    }

    deinit {
        av_freep(&context.pointee.buffer)
        var pointer: UnsafeMutablePointer<AVIOContext>? = context
        avio_context_free(&pointer)
    }
}
