import Pipeline

/// Which frames of a video a run processes (`facepipe run --every N`,
/// `--fps F`); every frame by default. Frames a selection leaves out are
/// decoded (a video cannot be read otherwise) but never reach a stage; the
/// frames kept keep their own index and time in the video.
public enum FrameSelection: Sendable, Equatable, Hashable {
    /// Frames 0, N, 2N… (N = 1: every frame).
    case every(Int)
    /// For each instant k / F seconds (k = 0, 1, 2…) up to the last frame's
    /// time, the frame whose presentation time is nearest (the earlier one on
    /// a tie); a frame nearest to two instants is processed once.
    case framesPerSecond(Double)

    /// Every frame.
    public static let everyFrame = FrameSelection.every(1)

    /// The limits of `--every` and `--fps`, checked before a run starts.
    public func validate() throws(PipelineError) {
        switch self {
        case .every(let n):
            guard (1...1_000_000).contains(n) else {
                throw .invalidRunConfiguration("--every must be a whole number of frames within 1…1000000, got \(n)")
            }
        case .framesPerSecond(let f):
            guard f.isFinite, f > 0, f <= 1000 else {
                throw .invalidRunConfiguration("--fps must be a number of frames per second above 0 and at most 1000, got \(f)")
            }
        }
    }

    /// The selection of `--every` and `--fps` as given (at most one of them).
    public static func fromFlags(every: Int?, fps: Double?) throws(PipelineError) -> FrameSelection {
        if every != nil && fps != nil {
            throw .invalidRunConfiguration("--every and --fps cannot be combined: give one of them")
        }
        let selection: FrameSelection = every.map(FrameSelection.every) ?? fps.map(FrameSelection.framesPerSecond) ?? .everyFrame
        try selection.validate()
        return selection
    }
}

/// The streaming half of a ``FrameSelection``: frames go in one at a time
/// in presentation order, the kept ones come out in the same order. With
/// `framesPerSecond` a frame is only known to be nearest to an instant once
/// the next frame is seen, so at most one frame waits.
package struct FrameSelector<Frame> {
    package let selection: FrameSelection
    /// `--fps`: the next instant's number k (instant k / F).
    private var instant = 0
    /// `--fps`: the last frame seen and its time, not yet given out.
    private var previous: (frame: Frame, index: Int, seconds: Double)?
    /// The index of the last frame given out (so none is given twice).
    private var lastKept = -1

    package init(_ selection: FrameSelection) { self.selection = selection }

    /// The frames to process now that `frame` (index `index`, at `seconds`) was decoded.
    package mutating func offer(_ frame: Frame, index: Int, seconds: Double) -> [Frame] {
        switch selection {
        case .every(let n):
            return index % n == 0 ? [frame] : []
        case .framesPerSecond(let rate):
            var kept: [Frame] = []
            while Double(instant) / rate <= seconds {
                let target = Double(instant) / rate
                instant += 1
                // Nearest of the previous frame and this one (times are increasing).
                if let previous, target - previous.seconds <= seconds - target {
                    if previous.index > lastKept { kept.append(previous.frame); lastKept = previous.index }
                } else if index > lastKept {
                    kept.append(frame)
                    lastKept = index
                }
            }
            previous = (frame, index, seconds)
            return kept
        }
    }
}
