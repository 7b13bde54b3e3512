import CFFmpeg

/// Owns an `AVFrame` and frees it.
final class Frame {
    let pointer: UnsafeMutablePointer<AVFrame>

    init() throws(VideoError) {
        guard let pointer = av_frame_alloc() else {
            throw .ffmpeg(FFmpegError("allocate a frame", code: facepipe_averror_enomem))
        }
        self.pointer = pointer
    }

    deinit {
        var pointer: UnsafeMutablePointer<AVFrame>? = pointer
        av_frame_free(&pointer)
    }
}
