import RunFolders
import VideoIO

extension VideoReading {
    /// The frames of `video`: a file's decoded from its descriptor (kept
    /// open while they are read), a member's from its bytes in memory.
    func frames(of video: VideoEntry) throws(VideoError) -> VideoFrameReader {
        let (input, file): (VideoInput, RegularFile?) = switch video.content {
        case .bytes(let bytes): (.bytes(bytes), nil)
        case .file(let open): (.fileDescriptor(open.descriptor), open)
        }
        let decoder = try VideoDecoder(input, name: String(decoding: video.rawName, as: UTF8.self), maxPixels: maxPixels)
        let source = VideoSource(info: decoder.info, input: input, file: file, rawName: video.rawName)
        return VideoFrameReader(decoder: FFmpegFrames(decoder, keeping: file, source: source), index: video.index,
                                rawName: video.rawName, isWholeInput: video.isWholeInput, selection: selection)
    }
}

/// `VideoIO`'s decoder as ``VideoFrameReader`` reads it (the only
/// ``FrameDecoding`` outside tests); holds the file the
/// decoder reads (if any) until the decoder is gone.
final class FFmpegFrames: FrameDecoding {
    private var decoder: VideoDecoder?
    private let file: RegularFile?
    let rotation: Int
    let videoSource: VideoSource?

    init(_ decoder: VideoDecoder, keeping file: RegularFile?, source: VideoSource) {
        self.decoder = decoder
        self.file = file
        rotation = decoder.info.rotation
        videoSource = source
    }

    deinit {
        // The decoder first: it reads the descriptor until it is freed.
        decoder = nil
        withExtendedLifetime(file) {}
    }

    var bytesRead: Int64 { decoder?.bytesRead ?? 0 }

    func nextFrame() throws -> DecodedFrame? {
        guard let frame = try decoder?.next() else { return nil }
        return DecodedFrame(index: frame.index, seconds: frame.seconds, image: frame.image, pts: frame.pts)
    }
}
