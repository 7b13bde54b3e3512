#if canImport(Glibc)
import Glibc
#endif
import CFFmpeg

/// A container being written by one of FFmpeg's muxers (`mp4`, `mov`, `matroska`) through `OutputIOContext`
/// (never a path or URL), with FFmpeg's bit-exact flag: no encoder version or other varying bytes in the
/// headers. Owns the output `AVFormatContext`.
final class ContainerMuxer {
    let io: OutputIOContext
    let context: UnsafeMutablePointer<AVFormatContext>

    init(fd: Int32, muxer: String) throws(VideoError) {
        FFmpegLibrary.prepare()
        io = try OutputIOContext(fd: fd)
        var context: UnsafeMutablePointer<AVFormatContext>?
        let code = avformat_alloc_output_context2(&context, nil, muxer, nil)
        guard code >= 0, let context else { throw .missingEncoder("\(muxer) muxer") }
        self.context = context
        context.pointee.pb = io.context
        context.pointee.flags |= AVFMT_FLAG_CUSTOM_IO | AVFMT_FLAG_BITEXACT
        context.pointee.io_open = { _, _, _, _, _ in -Int32(EPERM) }
    }

    deinit {
        avformat_free_context(context)   // the custom AVIOContext belongs to `io`
    }

    /// True when the muxer stores each stream's codec parameters in its header (then encoders must put theirs
    /// in extradata).
    var wantsGlobalHeader: Bool { context.pointee.oformat.pointee.flags & AVFMT_GLOBALHEADER != 0 }

    func addStream() throws(VideoError) -> UnsafeMutablePointer<AVStream> {
        guard let stream = avformat_new_stream(context, nil) else {
            throw .ffmpeg(FFmpegError("add a stream", code: facepipe_averror_enomem))
        }
        return stream
    }
}
