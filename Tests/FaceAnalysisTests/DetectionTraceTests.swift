import FaceAnalysis
import Foundation
import ImageCore
import Testing
import _TestSupport

/// `DetectionTrace`, what the `facepipe-probes` detector probes read: a
/// traced run finds what an untraced one finds, and its low-score records
/// hold every canvas detection from the floor up, each with the output
/// layer (stride 8 or 16) that found it.
@Suite(.enabled(if: Fixtures.modelsAvailable)) struct DetectionTraceTests {
    @Test func lowScoresLeaveTheFacesAlone() throws {
        let t1 = try FaceTestSupport.photo("t1.jpg")
        let options = FaceDetectionOptions(mode: .pyramid, minFaceSize: .pixels(20), canvasArithmetic: .int8)
        let plain = try FaceTestSupport.analyzer().detect(in: t1, options: options)

        let analyzer = try FaceTestSupport.analyzer()
        let trace = DetectionTrace()
        trace.lowScoreFloor = 0.05
        analyzer.searchObserver = trace
        let traced = try analyzer.detect(in: t1, options: options)

        #expect(traced == plain)
        #expect(!plain.isEmpty)
        let plan = try #require(trace.plan)
        #expect(trace.canvasRuns.count == plan.tiles.count)
        let low = trace.lowScores
        #expect(low.allSatisfy { $0.detection.score >= 0.05 })
        #expect(Set(low.map(\.stride)) == [8, 16])
        #expect(Set(low.map(\.level)) == Set(trace.canvasRuns.filter { !$0.skipped }.map(\.canvas.level)))
        // Far more anchors between the floor and the canvas floor (0.6) than kept detections.
        let kept = trace.canvasRuns.reduce(0) { $0 + $1.detections.count }
        #expect(low.filter { $0.detection.score < 0.6 }.count > 10 * kept)
        // Every kept canvas detection comes from anchors recorded at its score or above.
        for run in trace.canvasRuns {
            for detection in run.detections {
                #expect(low.contains { $0.level == run.canvas.level && $0.detection.score >= 0.6
                    && $0.detection.box.intersectionOverUnion(detection.box) > 0.5 })
            }
        }
    }
}
