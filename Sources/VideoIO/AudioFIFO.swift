import CFFmpeg

/// Owns an `AVAudioFifo` of planar float samples (the AAC encoder's input) and frees it.
final class AudioFIFO {
    let pointer: OpaquePointer
    let channels: Int

    init(channels: Int) throws(VideoError) {
        guard let pointer = av_audio_fifo_alloc(AV_SAMPLE_FMT_FLTP, Int32(channels), 1024) else {
            throw .ffmpeg(FFmpegError("allocate an audio buffer", code: facepipe_averror_enomem))
        }
        self.pointer = pointer
        self.channels = channels
    }

    deinit { av_audio_fifo_free(pointer) }

    var count: Int { Int(av_audio_fifo_size(pointer)) }

    /// Appends `samples` samples per channel, given channel after channel (`planes[c * samples + i]`).
    func write(_ planes: [Float], samples: Int) throws(VideoError) {
        guard samples > 0, planes.count == samples * channels else { return }
        var planes = planes
        let code: Int32 = planes.withUnsafeMutableBufferPointer { all in
            var pointers: [UnsafeMutableRawPointer?] = (0..<channels).map { UnsafeMutableRawPointer(all.baseAddress! + $0 * samples) }
            return pointers.withUnsafeMutableBufferPointer { av_audio_fifo_write(pointer, $0.baseAddress, Int32(samples)) }
        }
        guard code >= 0 else { throw .ffmpeg(FFmpegError("buffer audio samples", code: code)) }
    }

    /// Moves `count` samples into `frame`'s planes (its buffers already allocated for at least that many).
    func read(_ count: Int, into frame: UnsafeMutablePointer<AVFrame>) throws(VideoError) {
        let code = frame.pointee.extended_data.withMemoryRebound(to: UnsafeMutableRawPointer?.self, capacity: channels) {
            av_audio_fifo_read(pointer, $0, Int32(count))
        }
        guard code >= 0 else { throw .ffmpeg(FFmpegError("read buffered audio samples", code: code)) }
    }
}
