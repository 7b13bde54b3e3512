/// How a run's sources read the videos among their entries: which frames
/// (``FrameSelection``) and how large a frame may be. Part of the run's
/// configuration (``RunConfiguration/video``), not of the pipeline.
public struct VideoReading: Sendable, Equatable {
    /// Which frames of each video are processed (default: every frame).
    public var selection: FrameSelection
    /// Most pixels (stored width × height) a video's frames may have; a
    /// larger video is refused before any frame is decoded. The same bound as
    /// ``Decode``'s default for stills.
    public var maxPixels: Int

    public init(selection: FrameSelection = .everyFrame, maxPixels: Int = 100_000_000) {
        self.selection = selection
        self.maxPixels = maxPixels
    }

    /// Every frame, up to 100 megapixels.
    public static let standard = VideoReading()
}
