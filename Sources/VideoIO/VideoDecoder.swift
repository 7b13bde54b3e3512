import CFFmpeg
import ImageCore

/// Decodes the video stream of an MP4, MOV, MKV or WebM container (H.264, H.265, VP9, AV1) to RGB frames in
/// presentation order.
///
/// FFmpeg reads the bytes only through `ContainerDemuxer` (the sniffed family's demuxer, no path, no URL, no
/// other file). Decoding runs on one thread and stops at the first damage FFmpeg detects; colour conversion is
/// VideoIO's own integer code (`YCbCrConverter`), so frames are the same bytes on every CPU.
public final class VideoDecoder {
    /// What the container says, with the size of the frames themselves (the first one is decoded on opening:
    /// a header may disagree with its stream).
    public private(set) var info: VideoInfo

    private let name: String
    private let maxPixels: Int
    private let demuxer: ContainerDemuxer
    private let codec: CodecContext
    private let packet: Packet
    private let frame: Frame
    private let streamIndex: Int32
    private let startTime: Int64
    private let frameStep: Int64
    private var converter: YCbCrConverter?
    private var nextIndex = 0
    private var previousPTS: Int64?
    private var draining = false
    private var finished = false
    /// The first frame, decoded on opening.
    private var pending: VideoFrame?
    /// Where a Matroska file's Segment says it ends (nil for MP4/MOV, or when unknown).
    private let segmentEnd: Int64?

    /// Bytes of the container read so far (progress).
    public var bytesRead: Int64 { demuxer.reader.bytesRead }

    /// Opens `input` and reads its header. `name` is used in messages; `maxPixels` bounds width × height
    /// (checked on the header before any frame is decoded, and on every frame).
    public init(_ input: VideoInput, name: String, maxPixels: Int) throws(VideoError) {
        self.name = name
        self.maxPixels = maxPixels
        demuxer = try ContainerDemuxer(input, name: name)
        let context = demuxer.context
        segmentEnd = demuxer.kind == .matroska ? MatroskaSegmentEnd.offset(in: demuxer.reader.prefix(4096)) : nil

        // The video stream: the first default one that is not a cover picture, else the first one.
        let streams = demuxer.streams
        let videos = streams.filter {
            $0.pointee.codecpar.pointee.codec_type == AVMEDIA_TYPE_VIDEO
                && $0.pointee.disposition & AV_DISPOSITION_ATTACHED_PIC == 0
        }
        guard let stream = videos.first(where: { $0.pointee.disposition & AV_DISPOSITION_DEFAULT != 0 }) ?? videos.first
        else { throw .noVideoStream(name) }
        let audioStreams = streams.filter { $0.pointee.codecpar.pointee.codec_type == AVMEDIA_TYPE_AUDIO }.count
        let displayMatrix = DisplayMatrix(of: stream)
        guard !displayMatrix.mirrored else { throw .mirrored(name) }
        streamIndex = stream.pointee.index
        demuxer.discardAll(except: [streamIndex])

        let parameters = stream.pointee.codecpar!
        let codecID = parameters.pointee.codec_id
        let codecName = String(cString: avcodec_get_name(codecID))
        guard [AV_CODEC_ID_H264, AV_CODEC_ID_HEVC, AV_CODEC_ID_VP9, AV_CODEC_ID_AV1].contains(codecID) else {
            throw .unsupportedCodec(name, codec: codecName)
        }
        try Self.checkPixels(Int(parameters.pointee.width), Int(parameters.pointee.height), maxPixels, name)

        // What the header leaves out (frame rate, pixel format) from the first packets, decoders bounded alike.
        var streamOptions = [OpaquePointer?](repeating: nil, count: streams.count)
        for index in streamOptions.indices {
            av_dict_set(&streamOptions[index], "threads", "1", 0)
            av_dict_set(&streamOptions[index], "max_pixels", String(Self.allocationBound(maxPixels)), 0)
        }
        let infoCode = streamOptions.withUnsafeMutableBufferPointer { avformat_find_stream_info(context, $0.baseAddress) }
        for index in streamOptions.indices { av_dict_free(&streamOptions[index]) }
        guard infoCode >= 0 else { throw .invalidContainer(name, FFmpegError("read the stream parameters", code: infoCode)) }
        let width = Int(parameters.pointee.width), height = Int(parameters.pointee.height)
        try Self.checkPixels(width, height, maxPixels, name)
        guard width > 0, height > 0 else { throw .noFrames(name) }

        // The decoder: one thread, strict about damage.
        guard let decoder = avcodec_find_decoder(codecID) else { throw .unsupportedCodec(name, codec: codecName) }
        codec = try CodecContext(decoder)
        do throws(FFmpegError) {
            try FFmpegError.check(avcodec_parameters_to_context(codec.pointer, parameters), "set up the decoder")
            codec.pointer.pointee.thread_count = 1
            codec.pointer.pointee.pkt_timebase = stream.pointee.time_base
            codec.pointer.pointee.max_pixels = Int64(Self.allocationBound(maxPixels))
            codec.pointer.pointee.err_recognition |= AV_EF_CRCCHECK | AV_EF_BITSTREAM | AV_EF_BUFFER | AV_EF_EXPLODE
            try FFmpegError.check(avcodec_open2(codec.pointer, decoder, nil), "open the \(codecName) decoder")
        } catch {
            throw .invalidContainer(name, error)
        }
        packet = try Packet()
        frame = try Frame()

        let timeBase = Rational(stream.pointee.time_base)
        var frameRate = Rational(stream.pointee.avg_frame_rate)
        if !frameRate.isPositive { frameRate = Rational(stream.pointee.r_frame_rate) }
        var duration: Double?
        if stream.pointee.duration != facepipe_av_nopts_value, stream.pointee.duration > 0, timeBase.isPositive {
            duration = Double(stream.pointee.duration) * timeBase.doubleValue
        } else if context.pointee.duration != facepipe_av_nopts_value, context.pointee.duration > 0 {
            duration = Double(context.pointee.duration) / Double(facepipe_av_time_base)
        }
        startTime = stream.pointee.start_time == facepipe_av_nopts_value ? 0 : stream.pointee.start_time
        if frameRate.isPositive, timeBase.isPositive {
            frameStep = max(1, av_rescale_q(1, AVRational(num: frameRate.denominator, den: frameRate.numerator), timeBase.av))
        } else {
            frameStep = 1
        }
        info = VideoInfo(
            width: width, height: height, rotation: displayMatrix.rotation,
            frameRate: frameRate, timeBase: timeBase, duration: duration, codec: codecName,
            audioStreams: audioStreams,
            frameCountHint: stream.pointee.nb_frames > 0 ? Int(stream.pointee.nb_frames) : nil,
            videoStreams: videos.count, streamNumber: videos.firstIndex(of: stream)! + 1)
        demuxer.reader.resetEndFlag()
        pending = try decodeNext()
    }

    /// The next frame in presentation order; nil at the end. Throws on damage (the frames before it were delivered).
    public func next() throws(VideoError) -> VideoFrame? {
        if let frame = pending {
            pending = nil
            return frame
        }
        return try decodeNext()
    }

    private func decodeNext() throws(VideoError) -> VideoFrame? {
        guard !finished else { return nil }
        let codec = codec.pointer, packet = packet.pointer, frame = frame.pointer
        do throws(VideoError) {
            while true {
                let received = avcodec_receive_frame(codec, frame)
                if received >= 0 {
                    defer { av_frame_unref(frame) }
                    return try deliver(frame)
                }
                if received == facepipe_averror_eof {
                    finished = true
                    if truncated { throw .truncated(name, frame: nextIndex) }
                    if nextIndex == 0 { throw .noFrames(name) }
                    return nil
                }
                guard received == facepipe_averror_eagain, !draining else {
                    throw damage(FFmpegError("decode a frame", code: received))
                }
                // The decoder wants input: the next packet of the video stream, or the flush at the end.
                let read = demuxer.read(packet)
                if let damageOffset = demuxer.damageOffset, read < 0 || packet.pointee.pos < 0 || packet.pointee.pos >= damageOffset {
                    // Frames were skipped with the damaged bytes: what came before is delivered, the clip ends here.
                    if read >= 0 { av_packet_unref(packet) }
                    throw damage(FFmpegError("read the container (the demuxer skipped damaged bytes)",
                                             code: facepipe_averror_invaliddata))
                }
                if read == facepipe_averror_eof {
                    draining = true
                    let code = avcodec_send_packet(codec, nil)
                    if code < 0 { throw damage(FFmpegError("flush the decoder", code: code)) }
                    continue
                }
                if read < 0 { throw damage(FFmpegError("read a packet", code: read)) }
                defer { av_packet_unref(packet) }
                guard packet.pointee.stream_index == streamIndex else { continue }
                if packet.pointee.flags & AV_PKT_FLAG_CORRUPT != 0 {
                    throw damage(FFmpegError("read a packet", code: facepipe_averror_invaliddata))
                }
                let sent = avcodec_send_packet(codec, packet)
                if sent < 0, sent != facepipe_averror_eagain { throw damage(FFmpegError("decode a packet", code: sent)) }
            }
        } catch {
            finished = true
            throw error
        }
    }

    /// A cut file: an MP4/MOV demuxer that asked for bytes past the end had an index pointing beyond the data;
    /// a Matroska file is shorter than its Segment says (its demuxer reads to the end of every file, and ends a
    /// cut one quietly).
    private var truncated: Bool {
        switch demuxer.kind {
        case .isoMedia: demuxer.reader.readPastEnd
        case .matroska: segmentEnd.map { $0 > demuxer.reader.size } ?? false
        }
    }

    private func damage(_ error: FFmpegError) -> VideoError {
        if truncated { return .truncated(name, frame: nextIndex) }
        return .from(error, name: name) { .damaged(name, frame: nextIndex, $0) }
    }

    private func deliver(_ frame: UnsafeMutablePointer<AVFrame>) throws(VideoError) -> VideoFrame {
        let index = nextIndex
        if frame.pointee.flags & AV_FRAME_FLAG_CORRUPT != 0 || frame.pointee.decode_error_flags != 0 {
            throw damage(FFmpegError("decode a frame", code: facepipe_averror_invaliddata))
        }
        let width = Int(frame.pointee.width), height = Int(frame.pointee.height)
        if index == 0, width != info.width || height != info.height {
            try Self.checkPixels(width, height, maxPixels, name)
            info.width = width
            info.height = height
        }
        guard width == info.width, height == info.height else {
            try Self.checkPixels(width, height, maxPixels, name)
            throw .frameSizeChanged(name, frame: index, width: width, height: height)
        }
        let matrix = ColourMatrix(frame.pointee.colorspace, width: width, height: height)
        let formatName = av_get_pix_fmt_name(AVPixelFormat(frame.pointee.format)).map { String(cString: $0) } ?? "unknown"
        let fullRange = frame.pointee.color_range == AVCOL_RANGE_JPEG || formatName.hasPrefix("yuvj")
        let layout = YCbCrConverter.Layout(format: frame.pointee.format, matrix: matrix, fullRange: fullRange)
        if converter?.layout != layout {
            guard let made = YCbCrConverter(format: frame.pointee.format, matrix: matrix, fullRange: fullRange) else {
                throw .unsupportedPixelFormat(name, format: formatName)
            }
            converter = made
        }
        var pts = frame.pointee.best_effort_timestamp
        if let previous = previousPTS, pts == facepipe_av_nopts_value || pts <= previous {
            pts = previous + frameStep
        } else if pts == facepipe_av_nopts_value {
            pts = startTime
        }
        previousPTS = pts
        nextIndex += 1
        let seconds = Double(pts - startTime) * info.timeBase.doubleValue
        return VideoFrame(index: index, pts: pts, seconds: seconds, image: converter!.convert(frame))
    }

    /// FFmpeg's own bound on a frame it allocates: twice `maxPixels`. FFmpeg checks the allocation's size,
    /// each row padded to a multiple of 64 pixels, so with `maxPixels` itself a frame inside the limit whose
    /// width is not such a multiple (10000×10000 under 100 megapixels) would fail to decode. Twice covers
    /// the padding of any frame at least 64 pixels wide; the limit itself is checked here, on the exact
    /// width × height, on the header and on every frame.
    static func allocationBound(_ maxPixels: Int) -> Int {
        maxPixels > Int(Int32.max) / 2 ? Int(Int32.max) : maxPixels * 2
    }

    private static func checkPixels(_ width: Int, _ height: Int, _ maxPixels: Int, _ name: String) throws(VideoError) {
        let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
        if width < 0 || height < 0 || overflow || pixels > maxPixels {
            throw .tooManyPixels(name, width: width, height: height, max: maxPixels)
        }
    }
}
