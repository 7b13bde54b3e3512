import VideoIO

extension VideoReading {
    /// Whether `prefix` (the first 12 bytes of a file or member, or all of a
    /// shorter one) starts a video container (`VideoContainerKind`, never the name).
    static func isVideo(_ prefix: some Collection<UInt8>) -> Bool {
        VideoContainerKind(sniffing: prefix) != nil
    }

    /// The bytes ``isVideo(_:)`` needs.
    static let sniffedBytes = VideoContainerKind.sniffLength

    /// The frames of the video in `file`, decoded from its descriptor (kept open while they are read).
    func frames(of file: OpenFile, index: Int, rawName: [UInt8]) throws(VideoError) -> VideoFrameReader {
        let decoder = try VideoDecoder(.fileDescriptor(file.descriptor), name: String(decoding: rawName, as: UTF8.self),
                                       maxPixels: maxPixels)
        let source = VideoSource(info: decoder.info, input: .fileDescriptor(file.descriptor), file: file, rawName: rawName)
        return VideoFrameReader(decoder: FFmpegFrames(decoder, keeping: file, source: source), index: index, rawName: rawName,
                                selection: selection)
    }

    /// The frames of a video held in memory (a tar member).
    func frames(of bytes: [UInt8], index: Int, rawName: [UInt8]) throws(VideoError) -> VideoFrameReader {
        let decoder = try VideoDecoder(.bytes(bytes), name: String(decoding: rawName, as: UTF8.self), maxPixels: maxPixels)
        let source = VideoSource(info: decoder.info, input: .bytes(bytes), file: nil, rawName: rawName)
        return VideoFrameReader(decoder: FFmpegFrames(decoder, keeping: nil, source: source), index: index, rawName: rawName,
                                selection: selection)
    }
}

/// `VideoIO`'s decoder as ``VideoFrameReader`` reads it (the only
/// ``FrameDecoding`` outside tests); holds the file the
/// decoder reads (if any) until the decoder is gone.
final class FFmpegFrames: FrameDecoding {
    private var decoder: VideoDecoder?
    private let file: OpenFile?
    let rotation: Int
    let videoSource: VideoSource?

    init(_ decoder: VideoDecoder, keeping file: OpenFile?, source: VideoSource) {
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
