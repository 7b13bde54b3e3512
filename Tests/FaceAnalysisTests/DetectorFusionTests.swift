import FaceAnalysis
import Foundation
import ImageCore
import Testing
import _TestSupport

/// `DetectorMode.accurate`: how YuNet's and BlazeFace's faces become one
/// list (`DetectorFusion`), and where Face Mesh's presence is asked.
struct DetectorFusionTests {
    /// A face as YuNet draws it: narrower than tall, brows to chin.
    static func yunet(x: Float, y: Float, side: Float, score: Float) -> FaceDetection {
        let eyeY = y + side * 0.45
        return FaceDetection(box: Rect(x: x + side * 0.1, y: y + side * 0.1, width: side * 0.8, height: side),
                             score: score,
                             keypoints: [Point(x: x + side * 0.3, y: eyeY), Point(x: x + side * 0.7, y: eyeY),
                                         Point(x: x + side * 0.5, y: y + side * 0.6), Point(x: x + side * 0.5, y: y + side * 0.8)],
                             foundBy: .yunet)
    }

    /// The same face as BlazeFace draws it: square, ear to ear.
    static func blazeFace(x: Float, y: Float, side: Float, score: Float) -> FaceDetection {
        let eyeY = y + side * 0.4
        return FaceDetection(box: Rect(x: x, y: y, width: side, height: side), score: score,
                             keypoints: [Point(x: x + side * 0.32, y: eyeY), Point(x: x + side * 0.68, y: eyeY),
                                         Point(x: x + side * 0.5, y: y + side * 0.62), Point(x: x + side * 0.5, y: y + side * 0.78),
                                         Point(x: x, y: eyeY), Point(x: x + side, y: eyeY)])
    }

    @Test func aFaceBothFindIsOneFaceBetweenTheirBoxes() throws {
        let a = Self.yunet(x: 100, y: 100, side: 30, score: 0.55), b = Self.blazeFace(x: 100, y: 100, side: 30, score: 0.52)
        #expect(a.box.intersectionOverUnion(b.box) < 0.85)
        let merged = DetectorFusion.merge(yunet: [a], blazeFace: [b], unconfirmed: .scored)
        let face = try #require(merged.first)
        #expect(merged.count == 1)
        #expect(face.foundBy == .both)
        #expect(face.score == 0.55)
        #expect(face.box == Rect(x: 101.5, y: 101.5, width: 27, height: 30))
        #expect(face.keypoints.count == 6)
        #expect(abs(face.keypoints[0].x - 109.3) < 1e-4 && abs(face.keypoints[0].y - 112.75) < 1e-4)
        #expect(face.keypoints[4] == b.keypoints[4] && face.keypoints[5] == b.keypoints[5])
        #expect(!face.needsSecondOpinion)
    }

    @Test(arguments: [(UnconfirmedFaces.scored, [0.65, 0.75]), (.all, [0.55, 0.65, 0.65, 0.75])] as [(UnconfirmedFaces, [Float])])
    func aFaceOneDetectorFindsMustClearThatDetectorsBar(_ unconfirmed: UnconfirmedFaces, kept: [Float]) {
        let yunet = [Self.yunet(x: 0, y: 0, side: 30, score: 0.55), Self.yunet(x: 100, y: 0, side: 30, score: 0.65)]
        let blazeFace = [Self.blazeFace(x: 200, y: 0, side: 30, score: 0.65), Self.blazeFace(x: 300, y: 0, side: 30, score: 0.75)]
        let merged = DetectorFusion.merge(yunet: yunet, blazeFace: blazeFace, unconfirmed: unconfirmed)
        #expect(merged.map(\.score).sorted() == kept)
        #expect(merged.allSatisfy { $0.foundBy != .both })
    }

    /// Two faces side by side in a crowd, one BlazeFace box over the first:
    /// the pair is the best overlap, and the neighbour stays a face of its own.
    @Test func aNeighbourIsNotSwallowedByAPair() {
        let left = Self.yunet(x: 100, y: 100, side: 24, score: 0.9), right = Self.yunet(x: 122, y: 100, side: 24, score: 0.9)
        let blaze = Self.blazeFace(x: 102, y: 100, side: 24, score: 0.8)
        let merged = DetectorFusion.merge(yunet: [right, left], blazeFace: [blaze], unconfirmed: .scored)
        #expect(merged.count == 2)
        #expect(merged.contains { $0.foundBy == .both && $0.box.x < 110 })
        #expect(merged.contains { $0.foundBy == .yunet && $0.box == right.box })
    }

    @Test func theMergeDoesNotDependOnTheOrderOfItsInputs() {
        var yunet: [FaceDetection] = [], blazeFace: [FaceDetection] = []
        for i in 0..<12 {
            let x = Float(i % 4) * 26, y = Float(i / 4) * 30
            yunet.append(Self.yunet(x: x, y: y, side: 24 + Float(i % 3), score: 0.5 + Float(i) * 0.04))
            if i % 3 != 0 { blazeFace.append(Self.blazeFace(x: x + 1, y: y, side: 25, score: 0.95 - Float(i) * 0.03)) }
        }
        func key(_ faces: [FaceDetection]) -> [String] { faces.map { "\($0.box) \($0.score) \($0.foundBy)" }.sorted() }
        let forward = DetectorFusion.merge(yunet: yunet, blazeFace: blazeFace, unconfirmed: .scored)
        let backward = DetectorFusion.merge(yunet: yunet.reversed(), blazeFace: blazeFace.reversed(), unconfirmed: .scored)
        #expect(key(forward) == key(backward))
        #expect(forward.filter { $0.foundBy == .both }.count == blazeFace.count)
    }

    @Test func faceMeshIsAskedAboutFacesOneDetectorFound() {
        #expect(Self.blazeFace(x: 0, y: 0, side: 24, score: 0.9).needsSecondOpinion)
        #expect(!Self.yunet(x: 0, y: 0, side: 40, score: 0.9).needsSecondOpinion)
        #expect(Self.yunet(x: 0, y: 0, side: FaceDetection.yunetSecondOpinionSize, score: 0.7).needsSecondOpinion)
        // A large face YuNet is sure of is not asked about.
        #expect(!Self.yunet(x: 0, y: 0, side: FaceDetection.yunetSecondOpinionSize, score: FaceDetection.yunetSecondOpinionScore).needsSecondOpinion)
        var both = Self.blazeFace(x: 0, y: 0, side: 200, score: 0.9)
        both.foundBy = .both
        #expect(!both.needsSecondOpinion)
    }

    /// Face Mesh's region for a YuNet face is the one its BlazeFace box
    /// would give: the two detectors' boxes of one face make nearly the same
    /// region, and a pair's mean box the same again.
    @Test func aYuNetFaceGetsBlazeFacesMeshRegion() {
        // A face both found, drawn as the measured medians say: BlazeFace's
        // side 0.863 × YuNet's height, its centre 0.07 × that height lower.
        let yunet = FaceDetection(box: Rect(x: 110, y: 100, width: 80, height: 100), score: 0.9,
                                  keypoints: [Point(x: 130, y: 140), Point(x: 170, y: 140)], foundBy: .yunet)
        let side: Float = 86.3, centreY: Float = 157
        let blaze = FaceDetection(box: Rect(x: 150 - side / 2, y: centreY - side / 2, width: side, height: side), score: 0.9,
                                  keypoints: [Point(x: 130, y: 140), Point(x: 170, y: 140)])
        let reference = RotatedSquare.faceMeshROI(for: blaze)
        var pairBox = DetectorFusion.pair(yunet, blaze)
        pairBox.keypoints = blaze.keypoints
        for face in [yunet, pairBox] {
            let region = RotatedSquare.faceMeshROI(for: face)
            #expect(abs(region.side - reference.side) < 0.01 && abs(region.centerY - reference.centerY) < 0.01
                    && abs(region.centerX - reference.centerX) < 0.01, "\(face.foundBy): \(region) vs \(reference)")
        }
        // Read as a BlazeFace box, YuNet's would make a region 16 % larger, 7 px higher.
        var misread = yunet
        misread.foundBy = .blazeFace
        #expect(RotatedSquare.faceMeshROI(for: misread).side > reference.side * 1.15)
    }

    /// On a picture with no face, Face Mesh's presence is low: a face only
    /// BlazeFace found there is rejected, a face both detectors found keeps
    /// its landmarks.
    @Test func presenceRejectsOnlyUnconfirmedFaces() throws {
        let analyzer = try FaceTestSupport.analyzer()
        let grey = RGBImage(width: 200, height: 200, pixels: [UInt8](repeating: 128, count: 200 * 200 * 3))
        var face = Self.blazeFace(x: 60, y: 60, side: 80, score: 0.9)
        guard case .notAFace = try analyzer.landmarkOutcome(for: face, in: grey, iris: false) else {
            Issue.record("a grey square passed Face Mesh's presence check")
            return
        }
        face.foundBy = .both
        #expect(try analyzer.landmarkOutcome(for: face, in: grey, iris: false).landmarks != nil)
    }

    /// On a real group photo, accurate mode keeps each face once: no two of
    /// its faces overlap as a YuNet box and a BlazeFace box of one face do.
    @Test(.enabled(if: YuNetParityTests.weightsAvailable, "needs models/yunet_s.weights (make models)"))
    func aGroupPhotosFacesAreEachFoundOnce() throws {
        let t1 = try FaceTestSupport.photo("t1.jpg")
        let analyzer = try FaceTestSupport.analyzer()
        let faces = try analyzer.detect(in: t1, options: FaceDetectionOptions(mode: .accurate, minFaceSize: .pixels(20)))
        let yunet = try analyzer.detect(in: t1, options: FaceDetectionOptions(mode: .yunet, minFaceSize: .pixels(20)))
        #expect(faces.count >= yunet.filter { $0.score >= DetectorFusion.yunetAloneMinScore }.count)
        #expect(faces.filter { $0.foundBy == .both }.count >= faces.count / 2)
        for (i, a) in faces.enumerated() {
            for b in faces[(i + 1)...] { #expect(a.box.intersectionOverUnion(b.box) < DetectorFusion.pairingIoU, "\(a.box) \(b.box)") }
        }
    }
}
