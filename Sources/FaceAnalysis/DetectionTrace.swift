import Glibc

/// Where one `FaceAnalyzer.detect` call spent its CPU: each canvas run with
/// the detections it kept, the whole frame, and building the level images.
/// Collected only when `FaceAnalyzer.trace` is set (the
/// `facepipe-probes detector-profile` probe); thread CPU time, so other
/// processes on the machine do not count.
package final class DetectionTrace {
    package struct CanvasRun: Sendable {
        package var canvas: DetectionRegionPlan.Canvas
        package var nanoseconds: UInt64
        /// Detections this canvas kept (after its NMS and edge rule), in source pixels.
        package var detections: [FaceDetection]
        /// Skipped for want of contrast (`DetectionRegionPlan.minimumCanvasContrast`).
        package var skipped: Bool
    }

    package var plan: DetectionRegionPlan?
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

    package init() {}

    /// Forgets the previous call's records.
    package func reset() {
        plan = nil; canvasRuns = []; wholeFrameNanoseconds = 0; levelImageNanoseconds = 0; lowScores = []
    }

    /// The calling thread's CPU time.
    package static func threadNanoseconds() -> UInt64 {
        var spec = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &spec)
        return UInt64(spec.tv_sec) * 1_000_000_000 + UInt64(spec.tv_nsec)
    }
}
