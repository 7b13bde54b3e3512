import Pipeline
import PipelineRunning
import Testing

/// `--every` and `--fps` as values: which frames each keeps, and the limits
/// the command line checks before a run starts.
@Suite struct FrameSelectionTests {
    /// Kept frame indices of `count` frames at `times` (default: 10 frames per second).
    static func kept(_ selection: FrameSelection, times: [Double]) -> [Int] {
        var selector = FrameSelector<Int>(selection)
        return times.enumerated().flatMap { selector.offer($0.offset, index: $0.offset, seconds: $0.element) }
    }

    static let tenPerSecond = (0..<20).map { Double($0) / 10 }

    @Test func everyNthFrame() {
        #expect(Self.kept(.every(1), times: Self.tenPerSecond) == Array(0..<20))
        #expect(Self.kept(.every(3), times: Self.tenPerSecond) == [0, 3, 6, 9, 12, 15, 18])
        #expect(Self.kept(.every(50), times: Self.tenPerSecond) == [0])
    }

    @Test func framesPerSecondTakesTheNearestFrame() {
        // Instants 0, 0.4, 0.8, 1.2, 1.6 (2.0 is after the last frame).
        #expect(Self.kept(.framesPerSecond(2.5), times: Self.tenPerSecond) == [0, 4, 8, 12, 16])
        // Instants 0, 1/3, 2/3, 1, 4/3, 5/3: nearest frames 0, 3, 7, 10, 13, 17.
        #expect(Self.kept(.framesPerSecond(3), times: Self.tenPerSecond) == [0, 3, 7, 10, 13, 17])
        // Uneven times: instant 0.5 is nearer 0.45 than 0.7; instant 1.0 nearer 0.95 than 1.2.
        #expect(Self.kept(.framesPerSecond(2), times: [0, 0.2, 0.45, 0.7, 0.95, 1.2]) == [0, 2, 4])
        // A tie goes to the earlier frame: instant 0.5 is 0.1 from both 0.4 and 0.6.
        #expect(Self.kept(.framesPerSecond(2), times: [0, 0.4, 0.6]) == [0, 1])
    }

    @Test func aFrameIsKeptOnceWhenTheRateIsAboveTheVideos() {
        #expect(Self.kept(.framesPerSecond(25), times: Self.tenPerSecond) == Array(0..<20))
    }

    @Test(arguments: [
        (every: 0 as Int?, fps: nil as Double?, message: "--every must be a whole number of frames within 1…1000000, got 0"),
        (every: -2, fps: nil, message: "--every must be a whole number of frames within 1…1000000, got -2"),
        (every: nil, fps: 0, message: "--fps must be a number of frames per second above 0 and at most 1000, got 0.0"),
        (every: nil, fps: Double.nan, message: "--fps must be a number of frames per second above 0 and at most 1000, got nan"),
        (every: nil, fps: 5000, message: "--fps must be a number of frames per second above 0 and at most 1000, got 5000.0"),
        (every: 2, fps: 1, message: "--every and --fps cannot be combined: give one of them"),
    ])
    func invalidFlagsAreRefused(every: Int?, fps: Double?, message: String) {
        #expect(throws: PipelineError.invalidRunConfiguration(message)) { try FrameSelection.fromFlags(every: every, fps: fps) }
    }

    @Test func noFlagMeansEveryFrame() throws {
        #expect(try FrameSelection.fromFlags(every: nil, fps: nil) == .everyFrame)
        #expect(try FrameSelection.fromFlags(every: 4, fps: nil) == .every(4))
        #expect(try FrameSelection.fromFlags(every: nil, fps: 2.5) == .framesPerSecond(2.5))
    }
}
