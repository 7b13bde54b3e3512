import CFFmpeg

/// One source audio stream decoded and encoded again as AAC (FFmpeg's own encoder, one thread, bit-exact
/// flag) for a written video (`AudioTreatment.reencode`): nothing of the source's codec configuration,
/// packets or side data reaches the output, only the decoded samples. Owns its decoder, encoder and buffer.
///
/// Samples are converted to planar float by this type (any of FFmpeg's integer or float layouts), buffered,
/// and encoded in AAC's 1024-sample frames, timed from the first decoded frame's time.
final class AudioReencoder {
    private let decoder: CodecContext
    private let encoder: CodecContext
    private let fifo: AudioFIFO
    private let decoded: Frame
    private let encodedFrame: Frame
    private let encodedPacket: Packet
    private let channels: Int
    private let sampleRate: Int32
    private let inputTimeBase: AVRational
    /// The next encoded frame's pts, in samples (set by the first decoded frame).
    private var nextSample: Int64?

    /// Why a stream cannot be re-encoded: a sentence for the note that says it was left out.
    struct Refusal: Error { let reason: String }

    /// Opens a decoder for `stream` and an AAC encoder of its rate and channels; throws a `Refusal` when
    /// either cannot be had.
    init(stream: UnsafeMutablePointer<AVStream>) throws(Refusal) {
        let parameters = stream.pointee.codecpar!
        let name = String(cString: avcodec_get_name(parameters.pointee.codec_id))
        guard let decoderCodec = avcodec_find_decoder(parameters.pointee.codec_id) else {
            throw Refusal(reason: "FFmpeg here has no \(name) decoder")
        }
        guard let aac = avcodec_find_encoder(AV_CODEC_ID_AAC) else { throw Refusal(reason: "FFmpeg here has no AAC encoder") }
        do {
            decoder = try CodecContext(decoderCodec)
            decoded = try Frame()
            encodedFrame = try Frame()
            encodedPacket = try Packet()
        } catch {
            throw Refusal(reason: "\(error)")
        }
        let input = decoder.pointer
        guard avcodec_parameters_to_context(input, parameters) >= 0 else { throw Refusal(reason: "its parameters are not valid") }
        input.pointee.thread_count = 1
        input.pointee.pkt_timebase = stream.pointee.time_base
        inputTimeBase = stream.pointee.time_base
        input.pointee.flags |= AV_CODEC_FLAG_BITEXACT
        // Float audio codecs pick their SIMD routines when opened, and those round differently from CPU to CPU:
        // both codecs of a re-encode are opened on FFmpeg's C routines, so every CPU kind writes the same bytes.
        let decoderOpened = Self.withPlainC { avcodec_open2(input, decoderCodec, nil) }
        guard decoderOpened >= 0 else { throw Refusal(reason: "its \(name) decoder could not be opened") }
        channels = Int(input.pointee.ch_layout.nb_channels)
        sampleRate = input.pointee.sample_rate
        guard channels > 0, sampleRate > 0 else { throw Refusal(reason: "it declares no channels or sample rate") }

        // The AAC encoder's rates.
        var rates: [Int32] = []
        if var rate = aac.pointee.supported_samplerates {
            while rate.pointee != 0 { rates.append(rate.pointee); rate += 1 }
        }
        guard rates.contains(sampleRate) else {
            throw Refusal(reason: "FFmpeg's AAC encoder does not take its sample rate of \(sampleRate) Hz")
        }
        // The source's layout when it is a usual one (FFmpeg checks it against the encoder's list on opening),
        // else the usual layout of its channel count.
        var layouts: [AVChannelLayout] = []
        if input.pointee.ch_layout.order == AV_CHANNEL_ORDER_NATIVE { layouts.append(input.pointee.ch_layout) }
        var usual = AVChannelLayout()
        av_channel_layout_default(&usual, Int32(channels))
        layouts.append(usual)
        var opened: CodecContext?
        for layout in layouts where opened == nil {
            // A context whose opening failed is not opened again: each layout gets a new one.
            guard let context = try? CodecContext(aac) else { break }
            let output = context.pointer
            output.pointee.sample_fmt = AV_SAMPLE_FMT_FLTP
            output.pointee.sample_rate = sampleRate
            output.pointee.ch_layout = layout   // a native layout: no allocated map to own
            output.pointee.bit_rate = Int64(64_000 * min(channels, 6))
            output.pointee.time_base = AVRational(num: 1, den: sampleRate)
            output.pointee.thread_count = 1
            output.pointee.flags |= AV_CODEC_FLAG_BITEXACT | AV_CODEC_FLAG_GLOBAL_HEADER
            if Self.withPlainC({ avcodec_open2(output, aac, nil) }) >= 0 { opened = context }
        }
        guard let opened else { throw Refusal(reason: "FFmpeg's AAC encoder does not take its \(channels) channels") }
        encoder = opened
        do { fifo = try AudioFIFO(channels: channels) } catch { throw Refusal(reason: "\(error)") }
    }

    /// Runs `open` with FFmpeg's CPU features masked off, so the codec it opens sets up FFmpeg's
    /// plain C routines whatever the CPU; the mask is lifted again at once (it only matters while a
    /// codec is opened, and a video decoder opened meanwhile is bit-exact on any routine).
    private static func withPlainC(_ open: () -> Int32) -> Int32 {
        av_force_cpu_flags(0)
        defer { av_force_cpu_flags(-1) }
        return open()
    }

    /// The output stream's parameters (AAC, with the encoder's own configuration).
    func describe(_ parameters: UnsafeMutablePointer<AVCodecParameters>) throws(VideoError) {
        let code = avcodec_parameters_from_context(parameters, encoder.pointer)
        guard code >= 0 else { throw .ffmpeg(FFmpegError("describe a re-encoded audio stream", code: code)) }
    }

    /// The encoder's time base (packets given to `write` are in it).
    var timeBase: AVRational { encoder.pointer.pointee.time_base }

    /// Decodes `packet` (nil: the end of the stream) and hands each AAC packet that is ready to `write`.
    func send(_ packet: UnsafeMutablePointer<AVPacket>?,
              write: (UnsafeMutablePointer<AVPacket>) throws(VideoError) -> Void) throws(VideoError) {
        var sent = avcodec_send_packet(decoder.pointer, packet)
        while true {
            if sent < 0, sent != facepipe_averror_eof, sent != facepipe_averror_eagain {
                throw .ffmpeg(FFmpegError("decode an audio packet", code: sent))
            }
            try receiveFrames()
            guard sent == facepipe_averror_eagain else { break }
            sent = avcodec_send_packet(decoder.pointer, packet)   // the decoder had frames to give first
        }
        try encode(final: packet == nil, write: write)
    }

    /// Buffers every frame the decoder has ready.
    private func receiveFrames() throws(VideoError) {
        while true {
            let code = avcodec_receive_frame(decoder.pointer, decoded.pointer)
            if code == facepipe_averror_eagain || code == facepipe_averror_eof { return }
            guard code >= 0 else { throw .ffmpeg(FFmpegError("decode an audio packet", code: code)) }
            defer { av_frame_unref(decoded.pointer) }
            try buffer(decoded.pointer)
        }
    }

    /// Converts a decoded frame to planar float and buffers it.
    private func buffer(_ frame: UnsafeMutablePointer<AVFrame>) throws(VideoError) {
        guard Int(frame.pointee.ch_layout.nb_channels) == channels, frame.pointee.sample_rate == sampleRate else {
            throw .ffmpeg(FFmpegError("decode an audio packet (its channels or rate changed)", code: facepipe_averror_invaliddata))
        }
        let samples = Int(frame.pointee.nb_samples)
        guard samples > 0 else { return }
        if nextSample == nil {
            let pts = frame.pointee.best_effort_timestamp
            nextSample = pts == facepipe_av_nopts_value ? 0 : av_rescale_q(pts, inputTimeBase, AVRational(num: 1, den: sampleRate))
        }
        let format = AVSampleFormat(frame.pointee.format)
        let planar = av_sample_fmt_is_planar(format) != 0
        let packed = av_get_packed_sample_fmt(format)
        var planes = [Float](repeating: 0, count: samples * channels)
        for channel in 0..<channels {
            guard let base = frame.pointee.extended_data[planar ? channel : 0] else { continue }
            let stride = planar ? 1 : channels, offset = planar ? 0 : channel
            for i in 0..<samples {
                let at = i * stride + offset
                let value: Float
                switch packed {
                case AV_SAMPLE_FMT_U8: value = (Float(base[at]) - 128) / 128
                case AV_SAMPLE_FMT_S16: value = Float(UnsafeRawPointer(base).load(fromByteOffset: at * 2, as: Int16.self)) / 32768
                case AV_SAMPLE_FMT_S32: value = Float(Double(UnsafeRawPointer(base).load(fromByteOffset: at * 4, as: Int32.self)) / 2_147_483_648)
                case AV_SAMPLE_FMT_S64: value = Float(Double(UnsafeRawPointer(base).load(fromByteOffset: at * 8, as: Int64.self)) / 9_223_372_036_854_775_808)
                case AV_SAMPLE_FMT_FLT: value = UnsafeRawPointer(base).load(fromByteOffset: at * 4, as: Float.self)
                case AV_SAMPLE_FMT_DBL: value = Float(UnsafeRawPointer(base).load(fromByteOffset: at * 8, as: Double.self))
                default:
                    let formatName = av_get_sample_fmt_name(format).map { String(cString: $0) } ?? "unknown"
                    throw .ffmpeg(FFmpegError("convert audio samples of format \(formatName)", code: facepipe_averror_invaliddata))
                }
                planes[channel * samples + i] = value
            }
        }
        try fifo.write(planes, samples: samples)
    }

    /// Encodes every whole AAC frame buffered (and, with `final`, the rest and the encoder's last packets).
    private func encode(final: Bool, write: (UnsafeMutablePointer<AVPacket>) throws(VideoError) -> Void) throws(VideoError) {
        let output = encoder.pointer, frame = encodedFrame.pointer
        let frameSize = Int(max(output.pointee.frame_size, 1))
        while fifo.count >= frameSize || (final && fifo.count > 0) {
            let count = min(frameSize, fifo.count)
            av_frame_unref(frame)
            frame.pointee.nb_samples = Int32(count)
            frame.pointee.format = AV_SAMPLE_FMT_FLTP.rawValue
            frame.pointee.sample_rate = sampleRate
            try Self.check(av_channel_layout_copy(&frame.pointee.ch_layout, &output.pointee.ch_layout), "describe an audio frame")
            try Self.check(av_frame_get_buffer(frame, 0), "allocate an audio frame")
            try fifo.read(count, into: frame)
            frame.pointee.pts = nextSample ?? 0
            nextSample = (nextSample ?? 0) + Int64(count)
            try Self.check(avcodec_send_frame(output, frame), "encode audio")
            try drain(write)
        }
        if final {
            let code = avcodec_send_frame(output, nil)
            if code < 0, code != facepipe_averror_eof { try Self.check(code, "flush the audio encoder") }
            try drain(write)
        }
    }

    private func drain(_ write: (UnsafeMutablePointer<AVPacket>) throws(VideoError) -> Void) throws(VideoError) {
        let packet = encodedPacket.pointer
        while true {
            let code = avcodec_receive_packet(encoder.pointer, packet)
            if code == facepipe_averror_eagain || code == facepipe_averror_eof { return }
            try Self.check(code, "encode audio")
            defer { av_packet_unref(packet) }
            try write(packet)
        }
    }

    private static func check(_ code: Int32, _ operation: @autoclosure () -> String) throws(VideoError) {
        do throws(FFmpegError) { try FFmpegError.check(code, operation()) } catch { throw .ffmpeg(error) }
    }
}
