import CFFmpeg
import ImageCore

/// Writes redacted frames as H.264 (libx264) in a new container of the source's family (MP4 for ISO media,
/// or MOV when the source's audio cannot go in MP4; Matroska for MKV/WebM), with the source's audio as
/// `AudioTreatment` decides (copied packet for packet under a rebuilt codec configuration, re-encoded as AAC,
/// or left out and listed in `droppedAudio`) and no metadata or side data of the source.
///
/// Frames of odd width or height lose their last column or row (yuv420p needs even sizes). The muxer runs with
/// FFmpeg's bit-exact flag, the RGB → Y'CbCr conversion is VideoIO's integer code and x264 runs on one thread,
/// so the bytes depend only on the frames and the source.
public final class VideoEncoder {
    private let width: Int, height: Int
    private let encodedWidth: Int, encodedHeight: Int
    private let source: ContainerDemuxer
    private let muxer: ContainerMuxer
    private let encoder: CodecContext
    private let frame: Frame
    private let packet: Packet
    private let audioPacket: Packet
    private let videoStream: UnsafeMutablePointer<AVStream>
    /// Source audio stream index → output stream.
    private var audioStreams: [Int32: UnsafeMutablePointer<AVStream>] = [:]
    /// Source audio stream index → its re-encoder (`AudioTreatment.reencode`).
    private var reencoders: [Int32: AudioReencoder] = [:]
    /// The source's audio streams left out, each as a sentence (`audio stream 1 (wmapro): …`).
    public private(set) var droppedAudio: [String] = []
    private var audioPending = false
    private var audioEnded = false
    /// Output audio stream index → what its packets' times gain (Matroska with Opus: the codec delay).
    private var audioShift: [Int32: Int64] = [:]
    private let converter = RGBToYCbCrConverter(matrix: .bt709)
    private var previousPTS: Int64?
    private var framesAppended = 0
    private var finished = false
    private static let name = "the redacted video"

    /// Writes a new container to `output`, an empty regular file the caller opened (and later renames into place);
    /// the caller owns the descriptor. `width`/`height`: the frames that will be appended (upright: a rotated
    /// source's sides swapped); no display matrix is written. Audio: each audio stream of `source` as
    /// `AudioTreatment` decides, interleaved as frames arrive (bounded memory). Metadata and side data: none copied.
    public init(output: Int32, source: VideoInput, sourceInfo: VideoInfo, width: Int, height: Int,
                encoding: VideoEncoding) throws(VideoError) {
        guard width >= 2, height >= 2 else {
            throw .invalidFrame(Self.name, reason: "frames of \(width)x\(height) are too small to encode")
        }
        guard (0...51).contains(encoding.crf), VideoEncoding.presets.contains(encoding.preset) else {
            throw .invalidFrame(Self.name, reason: "CRF \(encoding.crf) with preset \(encoding.preset) is not an x264 setting")
        }
        guard sourceInfo.timeBase.isPositive else {
            throw .invalidFrame(Self.name, reason: "the source's time base \(sourceInfo.timeBase) is not positive")
        }
        self.width = width
        self.height = height
        encodedWidth = width & ~1
        encodedHeight = height & ~1
        self.source = try ContainerDemuxer(source, name: "the source video")

        // The source's audio streams, what becomes of each, and a muxer that can hold them.
        var audio: [(stream: UnsafeMutablePointer<AVStream>, treatment: AudioTreatment)] = []
        for (position, input) in self.source.streams.filter({ $0.pointee.codecpar.pointee.codec_type == AVMEDIA_TYPE_AUDIO }).enumerated() {
            let parameters = input.pointee.codecpar.pointee
            let extradata = parameters.extradata.map { Array(UnsafeBufferPointer(start: $0, count: Int(max(parameters.extradata_size, 0)))) } ?? []
            let treatment = AudioTreatment.decide(codec: parameters.codec_id, extradata: extradata)
            if treatment == .reencode {
                do throws(AudioReencoder.Refusal) {
                    reencoders[input.pointee.index] = try AudioReencoder(stream: input)
                } catch {
                    droppedAudio.append("audio stream \(position + 1) (\(String(cString: avcodec_get_name(parameters.codec_id)))): \(error.reason)")
                    continue
                }
            }
            audio.append((input, treatment))
        }
        self.source.discardAll(except: Set(audio.map { $0.stream.pointee.index }))
        var muxerName = self.source.kind == .isoMedia ? "mp4" : "matroska"
        if muxerName == "mp4", let mp4 = av_guess_format("mp4", nil, nil),
           audio.contains(where: { $0.treatment != .reencode
               && avformat_query_codec(mp4, $0.stream.pointee.codecpar.pointee.codec_id, FF_COMPLIANCE_NORMAL) != 1 }) {
            muxerName = "mov"   // e.g. PCM audio from a camera's MOV, which MP4 cannot hold
        }
        muxer = try ContainerMuxer(fd: output, muxer: muxerName)
        if muxerName == "matroska" {
            // Matroska stores an audio stream's codec delay (Opus pre-skip) and gets its first packets at
            // negative times; FFmpeg's default would shift every stream later to avoid them, moving the frames.
            muxer.context.pointee.avoid_negative_ts = AVFMT_AVOID_NEG_TS_DISABLED
        }

        // H.264 with libx264: one thread, the documented quality.
        guard let x264 = avcodec_find_encoder_by_name("libx264") else { throw .missingEncoder("libx264 encoder") }
        encoder = try CodecContext(x264)
        let codec = encoder.pointer
        codec.pointee.width = Int32(encodedWidth)
        codec.pointee.height = Int32(encodedHeight)
        codec.pointee.pix_fmt = AV_PIX_FMT_YUV420P
        codec.pointee.time_base = sourceInfo.timeBase.av
        if sourceInfo.frameRate.isPositive { codec.pointee.framerate = sourceInfo.frameRate.av }
        codec.pointee.sample_aspect_ratio = AVRational(num: 1, den: 1)
        codec.pointee.thread_count = 1
        codec.pointee.flags |= AV_CODEC_FLAG_BITEXACT
        if muxer.wantsGlobalHeader { codec.pointee.flags |= AV_CODEC_FLAG_GLOBAL_HEADER }
        codec.pointee.colorspace = AVCOL_SPC_BT709
        codec.pointee.color_range = AVCOL_RANGE_MPEG
        codec.pointee.color_primaries = AVCOL_PRI_BT709
        codec.pointee.color_trc = AVCOL_TRC_BT709
        var options: OpaquePointer?
        av_dict_set(&options, "crf", String(encoding.crf), 0)
        av_dict_set(&options, "preset", encoding.preset, 0)
        // x264 picks some algorithms by CPU (its macroblock-tree's float kernels round differently with AVX2
        // and AVX-512): `cpu-independent` makes the bytes the same on every CPU (checked under qemu).
        av_dict_set(&options, "x264-params", "cpu-independent=1" + Self.lookaheadLimit(width: encodedWidth, height: encodedHeight), 0)
        defer { av_dict_free(&options) }
        try Self.check(avcodec_open2(codec, x264, &options), "open the libx264 encoder")

        videoStream = try muxer.addStream()
        try Self.check(avcodec_parameters_from_context(videoStream.pointee.codecpar, codec), "describe the video stream")
        videoStream.pointee.time_base = codec.pointee.time_base
        videoStream.pointee.avg_frame_rate = codec.pointee.framerate
        videoStream.pointee.disposition = AV_DISPOSITION_DEFAULT

        for (position, (input, treatment)) in audio.enumerated() {
            let stream = try muxer.addStream()
            if let reencoder = reencoders[input.pointee.index] {
                try reencoder.describe(stream.pointee.codecpar)
                stream.pointee.time_base = reencoder.timeBase
            } else if case .copy(let extradata) = treatment {
                try Self.describeCopy(stream.pointee.codecpar, of: input.pointee.codecpar, extradata: extradata)
                stream.pointee.time_base = input.pointee.time_base
            }
            stream.pointee.codecpar.pointee.codec_tag = 0   // the muxer's own tag for the codec
            stream.pointee.disposition = position == 0 ? AV_DISPOSITION_DEFAULT : 0
            audioStreams[input.pointee.index] = stream
        }
        try Self.check(avformat_write_header(muxer.context, nil), "write the container header")
        if muxerName == "matroska" {
            // Matroska keeps an Opus stream's codec delay (pre-skip) in its header and a reader subtracts it
            // from every block's time; FFmpeg's muxer adds it back only when it may shift every stream
            // (which the setting above forbids). Added here, so each packet reads back at the source's time.
            for stream in audioStreams.values where stream.pointee.codecpar.pointee.codec_id == AV_CODEC_ID_OPUS {
                let parameters = stream.pointee.codecpar.pointee
                guard parameters.initial_padding > 0, parameters.sample_rate > 0 else { continue }
                audioShift[stream.pointee.index] = av_rescale_q(Int64(parameters.initial_padding),
                                                                AVRational(num: 1, den: parameters.sample_rate),
                                                                stream.pointee.time_base)
            }
        }

        frame = try Frame()
        packet = try Packet()
        audioPacket = try Packet()
        frame.pointer.pointee.format = AV_PIX_FMT_YUV420P.rawValue
        frame.pointer.pointee.width = Int32(encodedWidth)
        frame.pointer.pointee.height = Int32(encodedHeight)
        try Self.check(av_frame_get_buffer(frame.pointer, 0), "allocate a frame")
    }

    /// Bytes of frames x264 may hold for its look-ahead (`rc-lookahead` frames and B-frames waiting, Y'CbCr
    /// 4:2:0): its presets hold up to 14 frames at `veryfast`, 1.4 GB of 8192×8192 frames. Frames of more than
    /// 1/14 of this (about 12.8 MP: larger than 4K) get a shorter look-ahead, so what x264 holds stays near
    /// this; smaller frames keep the preset's own (the same bytes as before).
    public static let lookaheadBytes = 256 << 20

    /// The x264 parameters that bound its look-ahead for frames of this size (empty when the preset's fits).
    static func lookaheadLimit(width: Int, height: Int) -> String {
        let frameBytes = max(1, width * height * 3 / 2)
        let frames = lookaheadBytes / frameBytes
        guard frames < 14 else { return "" }
        let lookahead = max(1, frames - 1)
        return ":rc-lookahead=\(lookahead):bframes=\(min(3, lookahead - 1))"
    }

    /// Frames in presentation order; `pts` in sourceInfo.timeBase (the source frame's pts).
    public func append(_ image: RGBImage, pts: Int64) throws(VideoError) {
        guard !finished else { throw .invalidFrame(Self.name, reason: "a frame came after finish()") }
        guard image.width == width, image.height == height else {
            throw .invalidFrame(Self.name, reason: "frame \(framesAppended) is \(image.width)x\(image.height), not \(width)x\(height)")
        }
        if let previousPTS, pts <= previousPTS {
            throw .invalidFrame(Self.name, reason: "frame \(framesAppended) has pts \(pts), not after \(previousPTS)")
        }
        previousPTS = pts
        let frame = frame.pointer
        try Self.check(av_frame_make_writable(frame), "prepare a frame")
        converter.convert(image, width: encodedWidth, height: encodedHeight, into: frame)
        frame.pointee.pts = pts
        try Self.check(avcodec_send_frame(encoder.pointer, frame), "encode frame \(framesAppended)")
        framesAppended += 1
        try writeEncodedPackets()
    }

    /// Flushes the encoder, copies the remaining audio, writes the trailer.
    public func finish() throws(VideoError) {
        guard !finished else { return }
        finished = true
        try Self.check(avcodec_send_frame(encoder.pointer, nil), "flush the encoder")
        try writeEncodedPackets()
        try copyAudio(upTo: nil)
        for (index, reencoder) in reencoders.sorted(by: { $0.key < $1.key }) {
            try reencoder.send(nil) { encoded throws(VideoError) in try writeReencoded(encoded, of: index, by: reencoder) }
        }
        try Self.check(av_write_trailer(muxer.context), "write the container trailer")
    }

    /// Writes every packet the encoder has ready, each after the source audio that comes before it.
    private func writeEncodedPackets() throws(VideoError) {
        let packet = packet.pointer
        while true {
            let code = avcodec_receive_packet(encoder.pointer, packet)
            if code == facepipe_averror_eagain || code == facepipe_averror_eof { return }
            try Self.check(code, "encode a frame")
            av_packet_rescale_ts(packet, encoder.pointer.pointee.time_base, videoStream.pointee.time_base)
            packet.pointee.stream_index = videoStream.pointee.index
            try copyAudio(upTo: (packet.pointee.dts, videoStream.pointee.time_base))
            try Self.check(av_interleaved_write_frame(muxer.context, packet), "write a video packet")
        }
    }

    /// Copies source audio packets whose time is not after `time` (all that remain when nil), unchanged but
    /// for their stream index and time base and without their side data (or gives them to their stream's
    /// re-encoder). Holds at most one packet read ahead.
    private func copyAudio(upTo time: (Int64, AVRational)?) throws(VideoError) {
        guard !audioStreams.isEmpty else { return }
        let packet = audioPacket.pointer
        while true {
            if !audioPending {
                if audioEnded { return }
                let code = source.read(packet)
                if code == facepipe_averror_eof {
                    audioEnded = true
                    return
                }
                if code < 0 {
                    throw .damaged("the source video", frame: framesAppended, FFmpegError("read an audio packet", code: code))
                }
                guard audioStreams[packet.pointee.stream_index] != nil else {
                    av_packet_unref(packet)
                    continue
                }
                audioPending = true
            }
            let input = source.context.pointee.streams[Int(packet.pointee.stream_index)]!
            let stream = audioStreams[packet.pointee.stream_index]!
            if let (limit, base) = time {
                let at = packet.pointee.dts != facepipe_av_nopts_value ? packet.pointee.dts : packet.pointee.pts
                if at != facepipe_av_nopts_value, av_compare_ts(at, input.pointee.time_base, limit, base) > 0 { return }
            }
            if let reencoder = reencoders[packet.pointee.stream_index] {
                audioPending = false
                let index = packet.pointee.stream_index
                defer { av_packet_unref(packet) }
                try reencoder.send(packet) { encoded throws(VideoError) in try writeReencoded(encoded, of: index, by: reencoder) }
                continue
            }
            Self.keepOnlySkipSamples(packet)
            av_packet_rescale_ts(packet, input.pointee.time_base, stream.pointee.time_base)
            if let shift = audioShift[stream.pointee.index] {
                if packet.pointee.pts != facepipe_av_nopts_value { packet.pointee.pts += shift }
                if packet.pointee.dts != facepipe_av_nopts_value { packet.pointee.dts += shift }
            }
            packet.pointee.stream_index = stream.pointee.index
            packet.pointee.pos = -1
            audioPending = false
            try Self.check(av_interleaved_write_frame(muxer.context, packet), "write an audio packet")
        }
    }

    /// Writes a packet of the re-encoder of source stream `index`.
    private func writeReencoded(_ packet: UnsafeMutablePointer<AVPacket>, of index: Int32, by reencoder: AudioReencoder) throws(VideoError) {
        let stream = audioStreams[index]!
        av_packet_rescale_ts(packet, reencoder.timeBase, stream.pointee.time_base)
        packet.pointee.stream_index = stream.pointee.index
        packet.pointee.pos = -1
        try Self.check(av_interleaved_write_frame(muxer.context, packet), "write an audio packet")
    }

    /// A copied stream's parameters, field by field from the numbers a muxer needs (never
    /// `avcodec_parameters_copy`, which would carry the source's codec configuration and channel names),
    /// with `extradata` as its codec configuration.
    private static func describeCopy(_ output: UnsafeMutablePointer<AVCodecParameters>,
                                     of input: UnsafeMutablePointer<AVCodecParameters>,
                                     extradata: [UInt8]?) throws(VideoError) {
        let source = input.pointee
        output.pointee.codec_type = AVMEDIA_TYPE_AUDIO
        output.pointee.codec_id = source.codec_id
        output.pointee.format = source.format
        output.pointee.bits_per_coded_sample = source.bits_per_coded_sample
        output.pointee.bits_per_raw_sample = source.bits_per_raw_sample
        output.pointee.sample_rate = source.sample_rate
        output.pointee.block_align = source.block_align
        output.pointee.frame_size = source.frame_size
        output.pointee.initial_padding = source.initial_padding
        output.pointee.trailing_padding = source.trailing_padding
        output.pointee.seek_preroll = source.seek_preroll
        av_channel_layout_uninit(&output.pointee.ch_layout)
        if source.ch_layout.order == AV_CHANNEL_ORDER_NATIVE {
            output.pointee.ch_layout = AVChannelLayout()
            output.pointee.ch_layout.order = AV_CHANNEL_ORDER_NATIVE
            output.pointee.ch_layout.nb_channels = source.ch_layout.nb_channels
            output.pointee.ch_layout.u.mask = source.ch_layout.u.mask
        } else {
            av_channel_layout_default(&output.pointee.ch_layout, max(source.ch_layout.nb_channels, 1))
        }
        guard let extradata, !extradata.isEmpty else { return }
        guard let buffer = av_mallocz(extradata.count + Int(AV_INPUT_BUFFER_PADDING_SIZE)) else {
            throw .ffmpeg(FFmpegError("describe an audio stream", code: facepipe_averror_enomem))
        }
        let bytes = buffer.assumingMemoryBound(to: UInt8.self)
        bytes.update(from: extradata, count: extradata.count)
        output.pointee.extradata = bytes
        output.pointee.extradata_size = Int32(extradata.count)
    }

    /// Drops a copied packet's side data (Matroska block additions, new extradata, replay gain…) but the
    /// number of samples to skip at its start and end, written anew.
    private static func keepOnlySkipSamples(_ packet: UnsafeMutablePointer<AVPacket>) {
        var size = 0
        var skip: (start: UInt32, end: UInt32)?
        if let data = av_packet_get_side_data(packet, AV_PKT_DATA_SKIP_SAMPLES, &size), size >= 8 {
            let word = { (at: Int) in (0..<4).reduce(UInt32(0)) { $0 | UInt32(data[at + $1]) << (8 * UInt32($1)) } }
            skip = (word(0), word(4))
        }
        av_packet_free_side_data(packet)
        guard let skip, let data = av_packet_new_side_data(packet, AV_PKT_DATA_SKIP_SAMPLES, 10) else { return }
        for i in 0..<4 {
            data[i] = UInt8((skip.start >> (8 * UInt32(i))) & 0xFF)
            data[4 + i] = UInt8((skip.end >> (8 * UInt32(i))) & 0xFF)
        }
        data[8] = 0
        data[9] = 0
    }

    private static func check(_ code: Int32, _ operation: @autoclosure () -> String) throws(VideoError) {
        do throws(FFmpegError) { try FFmpegError.check(code, operation()) } catch { throw .from(error, name: name) { .ffmpeg($0) } }
    }
}
