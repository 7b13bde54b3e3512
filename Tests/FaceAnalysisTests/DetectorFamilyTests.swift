import FaceAnalysis
import ImageCore
import Testing
import _TestSupport

/// Detectors as families (``DetectorFamily``) composed by modes
/// (``DetectorComposition``): each mode's models come from its families,
/// a family added outside the list (BackCameraFamily.swift, one row) runs
/// through the same `FaceAnalyzer.detect` as the shipped ones, and a
/// composition asking a family for a search it does not declare is refused.
struct DetectorFamilyTests {
    /// The models each mode loads, in the order its stage definition (and
    /// so its cache key) lists them: what `DetectFaces.models(for:)` gave
    /// before modes were compositions.
    @Test(arguments: [
        (DetectorMode.fast, UnconfirmedFaces.scored, [FaceModel.shortRangeDetector]),
        (.sparse, .scored, [.fullRangeSparseDetector]),
        (.pyramid, .scored, [.fullRangeDetector, .shortRangeDetector]),
        (.yunet, .scored, [.yunet]),
        (.accurate, .scored, [.yunet, .shortRangeDetector]),
        (.accurate, .all, [.yunet, .fullRangeDetector, .shortRangeDetector]),
    ])
    func eachModeLoadsItsFamiliesModels(mode: DetectorMode, unconfirmed: UnconfirmedFaces, models: [FaceModel]) throws {
        let composition = mode.composition(unconfirmed: unconfirmed)
        try composition.validate()
        #expect(composition.models == models)
    }

    @Test func everyShippedFamilyHasItsOwnCatalogueModel() {
        let models = DetectorFamily.all.map(\.model)
        #expect(Set(models).count == models.count)
        #expect(Set(DetectorFamily.all.map(\.name)).count == DetectorFamily.all.count)
        for family in DetectorFamily.all {
            if let layout = family.anchorLayout {
                #expect(layout.model == family.model && layout.anchorCount * 16 == family.model.requiredOutputCounts[0], "\(family)")
            }
        }
    }

    @Test func aFamilyAddedByOneRowDeclaresItsModel() throws {
        let composition = DetectorComposition(search: .wholeFrame(.blazeFaceBackCamera))
        try composition.validate()
        #expect(composition.models == [.backCameraDetector])
        #expect(DetectorFamily.blazeFaceBackCamera.anchorLayout?.anchorCount == 896)
    }

    /// Which faces Face Mesh is asked about and which 1×1 convolutions run
    /// in int8 are rules of the family's row, not of its decoding or of a
    /// switch over detectors: a row with YuNet-s's int8 rule plans every
    /// 1×1 in int8 though it decodes anchors, and each shipped family's
    /// faces are asked about as its row says.
    @Test func secondOpinionAndInt8PointwiseAreTheRowsRules() {
        let back = DetectorFamily.blazeFaceBackCamera
        var everyOneByOne = back
        everyOneByOne.int8Pointwise = .every
        #expect(back.pointwise(.int8) == .int8 && everyOneByOne.pointwise(.int8) == .int8Every)
        #expect(everyOneByOne.pointwise(.int8FirstLayer) == .float32 && everyOneByOne.pointwise(.float32) == .float32)
        for family in DetectorFamily.all {
            for (side, score) in [(Float(24), Float(0.5)), (64, 0.7), (64, 0.8), (300, 0.74), (300, 0.99)] {
                let face = FaceDetection(box: Rect(x: 10, y: 10, width: side, height: side), score: score,
                                         keypoints: [], foundBy: family.foundBy)
                #expect(face.needsSecondOpinion == family.secondOpinion.asks(about: face), "\(family) \(side) px \(score)")
            }
        }
        #expect(DetectorFamily.yunetS.secondOpinion == .whenLargeAndUnsure(size: 64, score: 0.75))
        #expect(DetectorFamily.secondOpinion(of: .both) == nil)
    }

    @Test func aSearchAFamilyDoesNotDeclareIsRefused() {
        #expect(throws: FaceAnalysisError.self) { try DetectorComposition(search: .tiledLevels(.blazeFaceBackCamera)).validate() }
        #expect(throws: FaceAnalysisError.self) {
            try DetectorComposition(search: .canvasPyramid(canvases: .blazeFaceBackCamera, smallPictures: .blazeFaceFullRange)).validate()
        }
        #expect(throws: FaceAnalysisError.self) { try DetectorComposition(search: .wholeFrame(.yunetS)).validate() }
    }

    /// The back-camera family finds the faces the short-range one finds on
    /// the whole frame, through the same `detect`.
    @Test(.enabled(if: Fixtures.modelsAvailable), arguments: ["astronaut.png", "lenna.png", "takeo.png"])
    func theAddedFamilyRunsThroughTheSameMachinery(_ photo: String) throws {
        let image = try FaceTestSupport.photo(photo)
        let analyzer = try FaceTestSupport.analyzer()
        let options = FaceDetectionOptions(minFaceSize: 0)
        let added = try analyzer.detect(in: image, composition: DetectorComposition(search: .wholeFrame(.blazeFaceBackCamera)),
                                        options: options)
        let shortRange = try analyzer.detect(in: image, options: FaceDetectionOptions(mode: .fast, minFaceSize: 0))
        #expect(!shortRange.isEmpty && added.count == shortRange.count, "\(photo): \(added.map(\.box)) vs \(shortRange.map(\.box))")
        for face in shortRange {
            let best = added.map { $0.box.intersectionOverUnion(face.box) }.max() ?? 0
            #expect(best >= 0.5, "\(photo): \(face.box) best IoU \(best)")
        }
        #expect(added.allSatisfy { $0.keypoints.count == 6 && $0.foundBy == .blazeFace && $0.score >= 0.5 })
    }
}
