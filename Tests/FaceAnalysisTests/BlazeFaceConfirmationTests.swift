import FaceAnalysis
import Foundation
import ImageCore
import Testing
import _TestSupport

/// Accurate mode's BlazeFace looks only where YuNet-s has a candidate
/// (`BlazeFaceConfirmation`): the square it reads, the score that confirms,
/// and that real faces come out confirmed by both detectors.
struct BlazeFaceConfirmationTests {
    @Test func theSquareHoldsTheCandidatesFaceAtItsSizeInTheInput() {
        let square = BlazeFaceConfirmation.square(around: Rect(x: 100, y: 200, width: 40, height: 56), inputSize: 128)
        #expect(square.side == 56 * 128 / BlazeFaceConfirmation.facePixels)
        #expect(square.x + square.side / 2 == 120 && square.y + square.side / 2 == 228, "centred on the box")
    }

    @Test func aLikelyFaceNeedsLessToBeConfirmed() {
        func candidate(_ score: Float) -> FaceDetection {
            FaceDetection(box: Rect(x: 0, y: 0, width: 20, height: 25), score: score, keypoints: [], foundBy: .yunet)
        }
        #expect(BlazeFaceConfirmation.confirmingMinScore(for: candidate(0.5)) == BlazeFaceConfirmation.confirmingMinScoreOfAFace)
        #expect(BlazeFaceConfirmation.confirmingMinScore(for: candidate(0.49)) == BlazeFaceConfirmation.confirmingMinScore)
        #expect(BlazeFaceConfirmation.confirmingMinScoreOfAFace < BlazeFaceConfirmation.confirmingMinScore)
    }

    @Test func aLargeCandidateIsAskedAboutFromAHigherScore() {
        func candidate(side: Float, _ score: Float) -> FaceDetection {
            FaceDetection(box: Rect(x: 0, y: 0, width: side * 0.8, height: side), score: score, keypoints: [], foundBy: .yunet)
        }
        let large = BlazeFaceConfirmation.largeCandidateWidth, from = BlazeFaceConfirmation.largeCandidateMinScore
        #expect(BlazeFaceConfirmation.asks(about: candidate(side: large - 1, 0.2)), "a small face from the candidates' floor")
        #expect(!BlazeFaceConfirmation.asks(about: candidate(side: large, from - 0.01)))
        #expect(BlazeFaceConfirmation.asks(about: candidate(side: large, from)))
        #expect(BlazeFaceConfirmation.candidateMinScore < from)
    }

    /// lenna.png at 3072 px (her face about 1300 px): YuNet-s's coarser
    /// level gives boxes of 400 px and more under 0.5 beside her face
    /// (parts of it, and of her hat). BlazeFace reads no square for them, every
    /// other candidate's it reads, and her face is still found by both.
    @Test(.enabled(if: YuNetParityTests.weightsAvailable, "needs models/yunet_s.weights (make models)"))
    func aLargeFacesLowBoxesAreNotAskedAbout() throws {
        let analyzer = try FaceTestSupport.analyzer()
        let trace = DetectionTrace()
        analyzer.searchObserver = trace
        let lenna = try FaceTestSupport.photo("lenna.png").resized(width: 3072, height: 3072)
        let faces = try analyzer.detect(in: lenna, options: FaceDetectionOptions(mode: .accurate, minFaceSize: .pixels(20), canvasArithmetic: .int8))
        let notAsked = trace.confirmations.filter { !$0.asked }
        #expect(notAsked.count >= 3, "\(trace.confirmations.map { ($0.candidate.box, $0.candidate.score, $0.asked) })")
        for (candidate, asked) in trace.confirmations {
            let large = candidate.box.longerSide >= BlazeFaceConfirmation.largeCandidateWidth
            #expect(asked == (!large || candidate.score >= BlazeFaceConfirmation.largeCandidateMinScore), "\(candidate.box) \(candidate.score)")
        }
        #expect(faces.contains { $0.foundBy == .both && $0.box.longerSide > 1000 }, "\(faces.map { ($0.box, $0.score, $0.foundBy) })")
    }

    /// t1.jpg's six faces at its own size (~110 px) and a quarter of it
    /// (~28 px) in a larger grey frame: every face accurate mode keeps was
    /// seen by both detectors (BlazeFace ran on the candidates' squares),
    /// none only by YuNet.
    @Test(.enabled(if: YuNetParityTests.weightsAvailable, "needs models/yunet_s.weights (make models)"),
          arguments: [1, 4])
    func realFacesAreConfirmedByBothDetectors(shrink: Int) throws {
        let analyzer = try FaceTestSupport.analyzer()
        let t1 = try FaceTestSupport.photo("t1.jpg")
        let photo = shrink == 1 ? t1 : try t1.downscaledAreaAverage(width: t1.width / shrink, height: t1.height / shrink)
        let (width, height) = (max(photo.width, 1200), max(photo.height, 900))
        var pixels = [UInt8](repeating: 96, count: width * height * 3)
        for y in 0..<photo.height {
            for x in 0..<photo.width {
                for c in 0..<3 { pixels[((y + (height - photo.height) / 2) * width + x + (width - photo.width) / 2) * 3 + c] = photo.pixels[(y * photo.width + x) * 3 + c] }
            }
        }
        let faces = try analyzer.detect(in: RGBImage(width: width, height: height, pixels: pixels),
                                        options: FaceDetectionOptions(mode: .accurate, minFaceSize: .pixels(20), canvasArithmetic: .int8))
        #expect(faces.count == 6, "\(faces.map { ($0.box, $0.score, $0.foundBy) })")
        #expect(faces.allSatisfy { $0.foundBy == .both }, "\(faces.map { ($0.box, $0.score, $0.foundBy) })")
    }
}
