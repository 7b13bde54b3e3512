#if canImport(Glibc)
import Glibc
#endif
import CFFmpeg

/// An `AVIOContext` whose reads and seeks go to a `VideoInputReader`: FFmpeg never opens a path or URL.
/// Owns the context and its buffer; keeps the reader alive as long as FFmpeg may call back into it.
final class InputIOContext {
    let reader: VideoInputReader
    let context: UnsafeMutablePointer<AVIOContext>

    init(_ reader: VideoInputReader) throws(VideoError) {
        self.reader = reader
        let bufferSize: Int32 = 64 * 1024
        guard let buffer = av_malloc(Int(bufferSize)) else {
            throw .ffmpeg(FFmpegError("allocate the read buffer", code: facepipe_averror_enomem))
        }
        let opaque = Unmanaged.passUnretained(reader).toOpaque()
        guard let context = avio_alloc_context(
            buffer.assumingMemoryBound(to: UInt8.self), bufferSize, 0, opaque,
            { opaque, buffer, size in
                let reader = Unmanaged<VideoInputReader>.fromOpaque(opaque!).takeUnretainedValue()
                let n = reader.read(into: UnsafeMutableRawPointer(buffer!), count: Int(size))
                if n < 0 { return -Int32(EIO) }
                return n == 0 ? facepipe_averror_eof : Int32(n)
            },
            nil,
            { opaque, offset, whence in
                let reader = Unmanaged<VideoInputReader>.fromOpaque(opaque!).takeUnretainedValue()
                if whence & AVSEEK_SIZE != 0 { return reader.size }
                return reader.seek(to: offset, whence: whence & ~AVSEEK_FORCE) ?? -Int64(EINVAL)
            })
        else {
            av_free(buffer)
            throw .ffmpeg(FFmpegError("allocate the read context", code: facepipe_averror_enomem))
        }
        self.context = context
    }

    deinit {
        // FFmpeg may have replaced the buffer (it reallocates on probing): free the one the context holds now.
        av_freep(&context.pointee.buffer)
        var pointer: UnsafeMutablePointer<AVIOContext>? = context
        avio_context_free(&pointer)
    }
}
