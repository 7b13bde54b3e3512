import CFFmpeg

/// Owns an `AVPacket` and frees it.
final class Packet {
    let pointer: UnsafeMutablePointer<AVPacket>

    init() throws(VideoError) {
        guard let pointer = av_packet_alloc() else {
            throw .ffmpeg(FFmpegError("allocate a packet", code: facepipe_averror_enomem))
        }
        self.pointer = pointer
    }

    deinit {
        var pointer: UnsafeMutablePointer<AVPacket>? = pointer
        av_packet_free(&pointer)
    }
}
