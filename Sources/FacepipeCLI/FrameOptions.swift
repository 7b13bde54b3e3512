import ArgumentParser
import Pipeline
import PipelineRunning

/// Which frames of each video `run` and `detect` process, declared once
/// and read once: `validate()` turns the flags into ``selection``.
struct FrameOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Videos: process frames 0, N, 2N… (default: every frame).", valueName: "N"))
    var every: Int?

    @Option(help: ArgumentHelp("Videos: process F frames per second, each the frame nearest to k/F s (default: every frame).", valueName: "F"))
    var fps: Double?

    /// The frames the flags choose, set by `validate()` (not an argument).
    @ParsedValue var selection: FrameSelection?

    mutating func validate() throws {
        do { selection = try FrameSelection.fromFlags(every: every, fps: fps) } catch { throw ValidationError(error.description) }
    }

    /// What ``VideoReading`` the run's sources read videos with.
    var reading: VideoReading { VideoReading(selection: selection ?? .everyFrame) }
}
