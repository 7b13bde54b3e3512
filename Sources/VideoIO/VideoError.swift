import CFFmpeg
#if canImport(Glibc)
import Glibc
#endif

/// Why a video could not be read or written. Every case names the input (or output) it is about.
public enum VideoError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The first bytes are not an ISO media (MP4, MOV) or Matroska (MKV, WebM) container.
    case notAVideo(String)
    /// The input could not be read (a failed `fstat`/`pread`, or a descriptor that is not a regular file): its errno.
    case unreadable(String, errno: Int32)
    /// FFmpeg could not read the container's header.
    case invalidContainer(String, FFmpegError)
    /// The container holds no video stream (audio only, or only a cover picture).
    case noVideoStream(String)
    /// The video stream's display matrix mirrors the picture (VideoIO turns frames, it does not flip them).
    case mirrored(String)
    /// The video stream's codec is not one VideoIO decodes (H.264, H.265, VP9, AV1).
    case unsupportedCodec(String, codec: String)
    /// The decoder gave frames in a pixel layout VideoIO does not convert (its FFmpeg name).
    case unsupportedPixelFormat(String, format: String)
    /// The header (or a frame) declares more pixels (width × height) than the limit; refused before decoding.
    case tooManyPixels(String, width: Int, height: Int, max: Int)
    /// The video stream decoded to no frame at all.
    case noFrames(String)
    /// The container or stream is damaged at `frame` (the frames before it were delivered).
    case damaged(String, frame: Int, FFmpegError)
    /// The container ends before the data its index points at: the frames before `frame` were delivered.
    case truncated(String, frame: Int)
    /// A frame's size differs from the stream's (`frame` is its index).
    case frameSizeChanged(String, frame: Int, width: Int, height: Int)
    /// The encoder was given a frame of the wrong size, or a pts not after the previous one.
    case invalidFrame(String, reason: String)
    /// An FFmpeg encoder or muxer VideoIO needs is missing from the installed libraries.
    case missingEncoder(String)
    /// FFmpeg could not allocate what `operation` needed (`ENOMEM`: the machine's memory or the process's
    /// address-space limit): not damage and not a full disk.
    case outOfMemory(String, operation: String)
    /// Any other failure inside FFmpeg.
    case ffmpeg(FFmpegError)

    /// The case for a failed FFmpeg call about `name`: out of memory when FFmpeg says so, else `otherwise`.
    static func from(_ error: FFmpegError, name: String, otherwise: (FFmpegError) -> VideoError) -> VideoError {
        error.code == facepipe_averror_enomem ? .outOfMemory(name, operation: error.operation) : otherwise(error)
    }

    public var description: String {
        switch self {
        case .notAVideo(let name):
            "\(name) is not a video: its first bytes are neither an MP4/MOV nor an MKV/WebM container."
        case .unreadable(let name, let code):
            "\(name) could not be read: \(String(cString: strerror(code)))."
        case .invalidContainer(let name, let error):
            "\(name) is not a readable video container (\(error))."
        case .noVideoStream(let name):
            "\(name) has no video stream."
        case .mirrored(let name):
            "\(name) is mirrored by its display matrix; facepipe turns video frames upright but does not flip them."
        case .unsupportedCodec(let name, let codec):
            "\(name) is encoded with \(codec); facepipe reads H.264, H.265, VP9 and AV1 video."
        case .unsupportedPixelFormat(let name, let format):
            "\(name) decodes to pixel format \(format), which facepipe does not convert to RGB."
        case .tooManyPixels(let name, let width, let height, let max):
            "\(name) declares \(width)x\(height) frames: over the pixel limit (\(max) pixels, width × height)."
        case .noFrames(let name):
            "\(name) has a video stream but no frame could be decoded."
        case .damaged(let name, let frame, let error):
            "\(name) is damaged at frame \(frame) (\(error))."
        case .truncated(let name, let frame):
            "\(name) is truncated: it ends at frame \(frame), before the data its index points at."
        case .frameSizeChanged(let name, let frame, let width, let height):
            "\(name) changes its frame size at frame \(frame) (to \(width)x\(height))."
        case .invalidFrame(let name, let reason):
            "\(name): \(reason)."
        case .missingEncoder(let what):
            "FFmpeg's \(what) is not installed (Debian 12: libavcodec59 with libx264)."
        case .outOfMemory(let name, let operation):
            "\(name): out of memory (\(operation)); frames this large need more memory, or fewer --workers."
        case .ffmpeg(let error):
            "FFmpeg failed: \(error)."
        }
    }
}
