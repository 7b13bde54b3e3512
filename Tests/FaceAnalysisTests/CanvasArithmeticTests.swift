import FaceAnalysis
import Foundation
import ImageCore
import Testing
import _TestSupport

/// `DetectorArithmetic.int8FirstLayer` and `.int8`: the pyramid canvases
/// of a real group photo with the detector's first layer (and its block
/// projections) in int8 find the faces fp32 finds, at nearly the same boxes
/// and scores.
@Suite(.enabled(if: Fixtures.modelsAvailable)) struct CanvasArithmeticTests {
    @Test(arguments: [DetectorArithmetic.int8FirstLayer, .int8])
    func int8FindsTheFloatFaces(_ arithmetic: DetectorArithmetic) throws {
        let t1 = try FaceTestSupport.photo("t1.jpg")
        let float = try FaceTestSupport.analyzer().detect(in: t1, options: FaceDetectionOptions(mode: .pyramid, minFaceSize: 0.05))
        let int8 = try FaceTestSupport.analyzer().detect(
            in: t1, options: FaceDetectionOptions(mode: .pyramid, minFaceSize: 0.05, canvasArithmetic: arithmetic))
        #expect(float.count == 6)
        #expect(int8.count == float.count)
        for face in float {
            let match = try #require(int8.max { $0.box.intersectionOverUnion(face.box) < $1.box.intersectionOverUnion(face.box) })
            #expect(match.box.intersectionOverUnion(face.box) > 0.9, "\(face.box) vs \(match.box)")
            #expect(abs(match.score - face.score) < 0.03, "\(face.score) vs \(match.score)")
        }
        // Not the fp32 run under another name.
        #expect(int8.map(\.score) != float.map(\.score))
    }
}
