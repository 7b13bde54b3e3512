/// What a container says about its video stream, read before any frame is decoded.
public struct VideoInfo: Sendable, Equatable {
    /// Frame size as stored (before rotation).
    public var width: Int, height: Int
    /// 0, 90, 180 or 270: the clockwise turn that makes a frame upright (the container's display matrix,
    /// rounded to the nearest quarter turn; a matrix that mirrors is refused: `VideoError.mirrored`).
    public var rotation: Int
    /// Average frame rate (num/den).
    public var frameRate: Rational
    /// The time base of the video stream's pts.
    public var timeBase: Rational
    /// Seconds, when the container says.
    public var duration: Double?
    /// FFmpeg's codec name: "h264", "hevc", "vp9", "av1".
    public var codec: String
    /// How many audio streams the container holds.
    public var audioStreams: Int
    /// nb_frames when the container says (progress only).
    public var frameCountHint: Int?
    /// How many video streams the container holds (cover pictures not counted); only one is decoded.
    public var videoStreams: Int
    /// Which of them is decoded (1-based, in the container's order): the first default one, else the first.
    public var streamNumber: Int

    public init(width: Int, height: Int, rotation: Int, frameRate: Rational, timeBase: Rational,
                duration: Double?, codec: String, audioStreams: Int, frameCountHint: Int?,
                videoStreams: Int = 1, streamNumber: Int = 1) {
        self.width = width
        self.height = height
        self.rotation = rotation
        self.frameRate = frameRate
        self.timeBase = timeBase
        self.duration = duration
        self.codec = codec
        self.audioStreams = audioStreams
        self.frameCountHint = frameCountHint
        self.videoStreams = videoStreams
        self.streamNumber = streamNumber
    }
}
