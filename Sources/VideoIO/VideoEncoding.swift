/// How VideoEncoder compresses: H.264 (libx264), yuv420p, BT.709 limited range, one encoder thread, and the
/// quality (CRF) and speed (preset) below.
public struct VideoEncoding: Sendable, Equatable {
    /// x264's constant rate factor: 0 (lossless) … 51; lower is larger and closer to the input.
    public var crf: Int
    /// x264's preset: ultrafast, superfast, veryfast, faster, fast, medium, slow, slower, veryslow.
    public var preset: String

    public init(crf: Int, preset: String) {
        self.crf = crf
        self.preset = preset
    }

    /// CRF 23 with preset veryfast (see docs/VIDEO.md, "Formats and encoding", for the measurement).
    public static let standard = VideoEncoding(crf: 23, preset: "veryfast")

    static let presets = ["ultrafast", "superfast", "veryfast", "faster", "fast", "medium", "slow", "slower", "veryslow"]
}
