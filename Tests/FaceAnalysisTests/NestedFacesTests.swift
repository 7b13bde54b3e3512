import FaceAnalysis
import ImageCore
import Testing

/// `NestedFaces`: a box around a much smaller face that scores higher is
/// dropped; every other pair of faces is left alone.
struct NestedFacesTests {
    static func face(_ x: Float, _ y: Float, _ width: Float, _ height: Float, score: Float) -> FaceDetection {
        FaceDetection(box: Rect(x: x, y: y, width: width, height: height), score: score, keypoints: [])
    }

    /// A head-and-shoulders box (303 px at 0.71) around a 116-px face at
    /// 0.92, as on the composite set's `grey-03.png`.
    @Test func aBoxAroundASurerSmallerFaceIsDropped() {
        let face = Self.face(407, 89, 116, 135, score: 0.92), around = Self.face(268, 24, 303, 303, score: 0.71)
        #expect(NestedFaces.removingContainers([around, face]) == [face])
        #expect(NestedFaces.removingContainers([face, around]) == [face])
    }

    /// One box around three faces, none of them alone enough to change that.
    @Test func aBoxAroundSeveralFacesIsDropped() {
        let faces = [Self.face(174, 626, 146, 174, score: 0.93), Self.face(1367, 465, 159, 186, score: 0.93),
                     Self.face(693, 772, 161, 189, score: 0.92)]
        let around = Self.face(131, 92, 913, 1008, score: 0.71)
        #expect(NestedFaces.removingContainers(faces + [around]) == faces)
    }

    @Test func aSmallerFaceScoringLowerLeavesTheBoxAlone() {
        let large = Self.face(0, 0, 400, 400, score: 0.95), inner = Self.face(150, 150, 60, 60, score: 0.7)
        #expect(NestedFaces.removingContainers([large, inner]) == [large, inner])
    }

    @Test func aFaceOverHalfTheBoxsSizeLeavesItAlone() {
        // Two boxes of one face (or two faces cheek to cheek) are the NMS's business, not this rule's.
        let outer = Self.face(0, 0, 100, 100, score: 0.7)
        let justOver = Self.face(20, 20, 51, 51, score: 0.9), half = Self.face(20, 20, 50, 50, score: 0.9)
        #expect(NestedFaces.removingContainers([outer, justOver]) == [outer, justOver])
        #expect(NestedFaces.removingContainers([outer, half]) == [half])
    }

    @Test func aFaceMostlyOutsideTheBoxLeavesItAlone() {
        let outer = Self.face(0, 0, 200, 200, score: 0.7)
        let mostlyInside = Self.face(105, 50, 100, 100, score: 0.9)   // 95 % inside
        let halfOut = Self.face(115, 50, 100, 100, score: 0.9)        // 85 %, under the 90 % asked
        let beside = Self.face(300, 50, 20, 20, score: 0.9)
        #expect(NestedFaces.removingContainers([outer, mostlyInside]) == [mostlyInside])
        #expect(NestedFaces.removingContainers([outer, halfOut]) == [outer, halfOut])
        #expect(NestedFaces.removingContainers([outer, beside]) == [outer, beside])
    }

    @Test func equalScoresLeaveBothFaces() {
        let outer = Self.face(0, 0, 300, 300, score: 0.8), inner = Self.face(100, 100, 50, 50, score: 0.8)
        #expect(NestedFaces.removingContainers([outer, inner]) == [outer, inner])
    }
}
