import ImageCore
import RunFolders

/// One video entry as a stream of frame items: decodes frames one at a time
/// (``FrameDecoding``), keeps those the run's ``FrameSelection`` chooses
/// and names each by its video and frame (``EntryName``). A decoding failure (a damaged clip)
/// ends the video: the frames before it were given out, then one
/// `.unreadable` item for the clip carries the reason, and the input goes on
/// with its next entry.
package final class VideoFrameReader {
    private let decoder: any FrameDecoding
    private let index: Int
    private let name: String
    private let rawName: [UInt8]
    private let isWholeInput: Bool
    private var selector: FrameSelector<DecodedFrame>
    /// Kept frames not yet given out (at most two with `--fps`).
    private var ready: [DecodedFrame] = []
    private var ended = false
    /// The last time given out, to keep times increasing.
    private var lastSeconds = -Double.infinity

    /// - Parameters:
    ///   - index: the video's position among its input's entries.
    ///   - rawName: the video's name as stored (a folder's relative path, a tar member's name).
    ///   - isWholeInput: the video is the input itself (a video file given as an input).
    package init(decoder: any FrameDecoding, index: Int, rawName: [UInt8], isWholeInput: Bool = false, selection: FrameSelection) {
        self.decoder = decoder
        self.index = index
        self.rawName = rawName
        self.isWholeInput = isWholeInput
        name = String(decoding: rawName, as: UTF8.self)
        selector = FrameSelector(selection)
    }

    /// Bytes of the container read so far.
    var bytesRead: Int64 { decoder.bytesRead }

    /// The next kept frame, the clip's error row, or nil when the video is done.
    package func next() -> SourceItem? {
        while ready.isEmpty {
            guard !ended else { return nil }
            do {
                guard let frame = try decoder.nextFrame() else {
                    ended = true
                    return nil
                }
                ready = selector.offer(frame, index: frame.index, seconds: frame.seconds)
            } catch {
                ended = true
                ready = []
                return .unreadable(index: index, name: name, rawName: rawName, reason: "\(error)")
            }
        }
        let frame = ready.removeFirst()
        // Times never go back (a container with a missing or repeated timestamp).
        let seconds = max(frame.seconds, lastSeconds)
        lastSeconds = seconds
        return .frame(FrameEntry(index: index, entryName: EntryName(member: rawName, frame: frame.index, isWholeInput: isWholeInput),
                                 frame: frame.index, time: seconds, rotation: decoder.rotation, image: frame.image,
                                 pts: frame.pts, source: decoder.videoSource))
    }
}

/// A frame as ``VideoFrameReader`` needs it from a decoder.
package struct DecodedFrame {
    /// 0-based, presentation order, counting every decoded frame.
    package var index: Int
    /// Presentation time in seconds from the stream's start.
    package var seconds: Double
    /// 8-bit RGB as stored.
    package var image: RGBImage
    /// In the stream's time base.
    package var pts: Int64

    package init(index: Int, seconds: Double, image: RGBImage, pts: Int64? = nil) {
        self.index = index
        self.seconds = seconds
        self.image = image
        self.pts = pts ?? Int64(index)
    }
}

/// What ``VideoFrameReader`` reads a video through: `VideoIO`'s
/// `VideoDecoder` (`FFmpegFrames`); tests give it synthetic frames.
package protocol FrameDecoding: AnyObject {
    /// Clockwise turn that makes a frame upright: 0, 90, 180 or 270.
    var rotation: Int { get }
    /// Bytes of the container read so far (progress).
    var bytesRead: Int64 { get }
    /// The container, for writing its frames out again as a video (nil: they are written as images).
    var videoSource: VideoSource? { get }
    /// The next frame in presentation order; nil at the end; throws on damage.
    func nextFrame() throws -> DecodedFrame?
}
