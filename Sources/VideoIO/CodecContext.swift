import CFFmpeg

/// Owns an `AVCodecContext` (a decoder or an encoder) and frees it.
final class CodecContext {
    let pointer: UnsafeMutablePointer<AVCodecContext>

    init(_ codec: UnsafePointer<AVCodec>) throws(VideoError) {
        guard let pointer = avcodec_alloc_context3(codec) else {
            throw .ffmpeg(FFmpegError("allocate a codec context", code: facepipe_averror_enomem))
        }
        self.pointer = pointer
    }

    deinit {
        var pointer: UnsafeMutablePointer<AVCodecContext>? = pointer
        avcodec_free_context(&pointer)
    }
}
