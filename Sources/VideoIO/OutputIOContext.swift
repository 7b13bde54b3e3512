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
            guard let target = seekTarget(offset, whence: whence, position: position, size: size) else { return -Int64(EINVAL) }
            position = target
            return target
        }
    }

    let writer: Writer
    private let io: CustomIOContext
    var context: UnsafeMutablePointer<AVIOContext> { io.context }

    init(fd: Int32) throws(VideoError) {
        writer = Writer(fd: fd)
        io = try CustomIOContext(
            bufferSize: 256 * 1024, opaque: Unmanaged.passUnretained(writer).toOpaque(),
            read: nil,
            write: { opaque, buffer, size in
                Unmanaged<Writer>.fromOpaque(opaque!).takeUnretainedValue().write(buffer!, count: Int(size))
            },
            seek: { opaque, offset, whence in
                let writer = Unmanaged<Writer>.fromOpaque(opaque!).takeUnretainedValue()
                if whence & AVSEEK_SIZE != 0 { return writer.size }
                return writer.seek(to: offset, whence: whence & ~AVSEEK_FORCE)
            },
            purpose: "write")
    }
}
