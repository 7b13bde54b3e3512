#if canImport(Glibc)
import Glibc
#endif
import CFFmpeg

/// An `AVIOContext` whose reads and seeks go to a `VideoInputReader`: FFmpeg never opens a path or URL.
/// Owns the context and its buffer; keeps the reader alive as long as FFmpeg may call back into it.
final class InputIOContext {
    let reader: VideoInputReader
    private let io: CustomIOContext
    var context: UnsafeMutablePointer<AVIOContext> { io.context }

    init(_ reader: VideoInputReader) throws(VideoError) {
        self.reader = reader
        io = try CustomIOContext(
            bufferSize: 64 * 1024, opaque: Unmanaged.passUnretained(reader).toOpaque(),
            read: { opaque, buffer, size in
                let reader = Unmanaged<VideoInputReader>.fromOpaque(opaque!).takeUnretainedValue()
                let n = reader.read(into: UnsafeMutableRawPointer(buffer!), count: Int(size))
                if n < 0 { return -Int32(EIO) }
                return n == 0 ? facepipe_averror_eof : Int32(n)
            },
            write: nil,
            seek: { opaque, offset, whence in
                let reader = Unmanaged<VideoInputReader>.fromOpaque(opaque!).takeUnretainedValue()
                if whence & AVSEEK_SIZE != 0 { return reader.size }
                return reader.seek(to: offset, whence: whence & ~AVSEEK_FORCE) ?? -Int64(EINVAL)
            },
            purpose: "read")
    }
}
