import ImageCore

/// One decoded frame of a video, in presentation order.
public struct VideoFrame: Sendable {
    /// 0-based, presentation order, counting every decoded frame (also those a selection skips).
    public var index: Int
    /// In `VideoInfo.timeBase`. FFmpeg's best-effort timestamp, made strictly increasing: a frame without one,
    /// or with one not after the previous frame's, gets the previous pts plus one frame duration.
    public var pts: Int64
    /// `pts` × time base, relative to the stream's start time.
    public var seconds: Double
    /// 8-bit RGB as stored (not rotated); the same bytes on every CPU kind.
    public var image: RGBImage

    public init(index: Int, pts: Int64, seconds: Double, image: RGBImage) {
        self.index = index
        self.pts = pts
        self.seconds = seconds
        self.image = image
    }
}
