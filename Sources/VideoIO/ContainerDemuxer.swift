#if canImport(Glibc)
import Glibc
#endif
import CFFmpeg

/// An opened MP4/MOV or MKV/WebM container: FFmpeg's demuxer of the sniffed family only, reading through
/// `InputIOContext` (never a path or URL); any attempt of the demuxer to open another resource (an MP4 data
/// reference, a playlist entry) is refused. Owns the `AVFormatContext`.
final class ContainerDemuxer {
    let kind: VideoContainerKind
    let io: InputIOContext
    let context: UnsafeMutablePointer<AVFormatContext>

    var reader: VideoInputReader { io.reader }

    init(_ input: VideoInput, name: String) throws(VideoError) {
        FFmpegLibrary.prepare()
        let reader = try VideoInputReader(input, name: name)
        guard let kind = VideoContainerKind(sniffing: reader.prefix(VideoContainerKind.sniffLength)) else {
            throw .notAVideo(name)
        }
        self.kind = kind
        io = try InputIOContext(reader)
        guard let context = avformat_alloc_context() else {
            throw .ffmpeg(FFmpegError("allocate the container", code: facepipe_averror_enomem))
        }
        context.pointee.pb = io.context
        context.pointee.flags |= AVFMT_FLAG_CUSTOM_IO
        context.pointee.io_open = { _, _, _, _, _ in -Int32(EPERM) }
        var options: OpaquePointer?
        av_dict_set(&options, "enable_drefs", "0", 0)
        defer { av_dict_free(&options) }
        var opened: UnsafeMutablePointer<AVFormatContext>? = context
        let code = avformat_open_input(&opened, nil, av_find_input_format(kind.demuxerName), &options)
        // On failure avformat_open_input frees the context (not the custom IO, which `io` owns).
        guard code >= 0, let opened else { throw .invalidContainer(name, FFmpegError("open the container", code: code)) }
        self.context = opened
        // Errors from here on: what the header parsing logged and read past concerns metadata (a second Info
        // element, a damaged SeekHead or Tags), not frames; packets are read only after it.
        FFmpegLog.watch(UnsafeMutableRawPointer(opened))
    }

    deinit {
        FFmpegLog.stopWatching(UnsafeMutableRawPointer(context))
        var context: UnsafeMutablePointer<AVFormatContext>? = context
        avformat_close_input(&context)
    }

    var streams: [UnsafeMutablePointer<AVStream>] {
        (0..<Int(context.pointee.nb_streams)).map { context.pointee.streams[$0]! }
    }

    /// Reads only the streams in `keep`; the demuxer skips the others' packets.
    func discardAll(except keep: Set<Int32>) {
        for stream in streams where !keep.contains(stream.pointee.index) { stream.pointee.discard = AVDISCARD_ALL }
    }

    /// Where the demuxer was reading when it first logged an error since its header was read (nil: none):
    /// it met damage there and read past it (a Matroska demuxer resyncs to the next cluster), so packets
    /// from there on may be missing though no call failed. Packets read before it (also those
    /// `avformat_find_stream_info` buffered) start before this offset.
    var damageOffset: Int64? { FFmpegLog.firstErrorOffset(UnsafeMutableRawPointer(context)) }

    /// The next packet (`av_read_frame`): 0, `AVERROR_EOF` at the end, another negative code on failure.
    func read(_ packet: UnsafeMutablePointer<AVPacket>) -> Int32 {
        av_read_frame(context, packet)
    }
}
