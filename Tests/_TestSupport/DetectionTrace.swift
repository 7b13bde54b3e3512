import FaceAnalysis
import Inference

/// Where one `FaceAnalyzer.detect` call's canvas-pyramid search spent its
/// CPU: each canvas run with the detections it kept, the whole frame, and
/// building the level images (a `PyramidSearchObserver`; the
/// `facepipe-probes` detector probes and `DetectionTraceTests` set it on
/// `FaceAnalyzer.searchObserver`). Thread CPU time, so other processes on
/// the machine do not count. Not in the shipped library.
package final class DetectionTrace: PyramidSearchObserver {
    package struct CanvasRun: Sendable {
        package var canvas: SearchPlan.Tile
        package var nanoseconds: UInt64
        /// Detections this canvas kept (after its NMS and edge rule), in source pixels.
        package var detections: [FaceDetection]
        /// Skipped for want of contrast (the search's `PyramidSearch.contrast`).
        package var skipped: Bool
    }

    package var plan: SearchPlan?
    package var canvasRuns: [CanvasRun] = []
    package var wholeFrameNanoseconds: UInt64 = 0
    package var levelImageNanoseconds: UInt64 = 0
    /// A canvas detection from `lowScoreFloor` up, before NMS, in source pixels.
    package struct LowScore: Sendable {
        package var level: Int
        /// The stride of the output layer that found it (short range: 8 or 16).
        package var stride: Int
        package var detection: FaceDetection
    }

    /// When set, every canvas also reports its detections from this score up (`lowScores`).
    package var lowScoreFloor: Float?
    package var lowScores: [LowScore] = []
    /// Accurate mode's candidates in the order its confirmation came to
    /// them, each with whether BlazeFace was asked about it (kept across
    /// searches: a turned search adds its own).
    package var confirmations: [(candidate: FaceDetection, asked: Bool)] = []
    /// The thread CPU time of the last event.
    private var clock: UInt64 = 0

    package init() {}

    /// Thread CPU time since the last event.
    private func lap() -> UInt64 {
        let now = threadCPUNanoseconds()
        defer { clock = now }
        return now - clock
    }

    /// Forgets the previous call's records.
    package func began(_ plan: SearchPlan) {
        self.plan = plan; canvasRuns = []; wholeFrameNanoseconds = 0; levelImageNanoseconds = 0; lowScores = []
        clock = threadCPUNanoseconds()
    }

    package func madeLevelImage() { levelImageNanoseconds += lap() }

    package func ranCanvas(_ canvas: SearchPlan.Tile, kept detections: [FaceDetection], skipped: Bool) {
        canvasRuns.append(CanvasRun(canvas: canvas, nanoseconds: lap(), detections: detections, skipped: skipped))
    }

    package func ranWholeFrame() { wholeFrameNanoseconds += lap() }

    package func lowScore(level: Int, stride: Int, detection: FaceDetection) {
        lowScores.append(LowScore(level: level, stride: stride, detection: detection))
    }

    package func confirming(_ candidate: FaceDetection, asked: Bool) {
        confirmations.append((candidate, asked))
    }
}
