import FaceAnalysis
import Foundation
import ImageCore
import Testing

/// Rotates every mesh point about `centre` by `degrees` counter-clockwise as seen in the image (y down).
func rotated(_ landmarks: FaceLandmarks, degrees: Float, about centre: Point) -> FaceLandmarks {
    let a = degrees * .pi / 180, c = cos(a), s = sin(a)
    func turn(_ p: Point3) -> Point3 {
        let dx = p.x - centre.x, dy = p.y - centre.y
        return Point3(x: centre.x + c * dx + s * dy, y: centre.y - s * dx + c * dy, z: p.z)
    }
    var copy = landmarks
    copy.mesh = landmarks.mesh.map(turn)
    copy.leftIris = landmarks.leftIris.map(turn)
    copy.rightIris = landmarks.rightIris.map(turn)
    return copy
}

struct PoseAndClassificationTests {
    @Test func frontalFacesHaveSmallAngles() throws {
        for stem in ["astronaut", "takeo"] {
            let pose = HeadPose(try referenceLandmarks(stem))
            #expect(abs(pose.roll) < 8 && abs(pose.yaw) < 12 && abs(pose.pitch) < 10, "\(stem): \(pose)")
        }
    }

    @Test(arguments: [-40, -10, 15, 90] as [Float])
    func rotatingTheMeshInPlaneChangesRollByTheAngle(degrees: Float) throws {
        let landmarks = try referenceLandmarks("astronaut")
        let before = HeadPose(landmarks)
        let after = HeadPose(rotated(landmarks, degrees: degrees, about: Point(x: 256, y: 256)))
        #expect(abs(after.roll - before.roll - degrees) < 0.01)
        #expect(abs(after.yaw - before.yaw) < 0.01 && abs(after.pitch - before.pitch) < 0.01)
        #expect(abs(after.rollRadians - after.roll * .pi / 180) < 1e-6)
    }

    @Test func lennaLooksTowardTheImageRight() throws {
        // Lenna's face is turned to the image's right (ML Kit: positive Euler Y).
        #expect(HeadPose(try referenceLandmarks("lenna")).yaw > 10)
    }

    @Test func astronautSmilesAndTakeoDoesNot() throws {
        let astronaut = FaceClassification(try referenceLandmarks("astronaut"))
        let takeo = FaceClassification(try referenceLandmarks("takeo"))
        let lenna = FaceClassification(try referenceLandmarks("lenna"))
        #expect(astronaut.smiling > 0.8)
        #expect(takeo.smiling < 0.3 && lenna.smiling < 0.3)
        for c in [astronaut, takeo, lenna] {
            #expect(c.leftEyeOpen > 0.8 && c.rightEyeOpen > 0.8)
        }
    }

    @Test func closingAnEyeLowersOnlyThatEyesProbability() throws {
        var landmarks = try referenceLandmarks("takeo")
        // Close the subject's left eye: move its upper lid points onto the lower lid.
        for (upper, lower) in [(386, 374), (385, 380), (387, 373), (384, 381), (388, 390), (398, 382), (466, 249)] {
            landmarks.mesh[upper] = landmarks.mesh[lower]
        }
        let c = FaceClassification(landmarks)
        #expect(c.leftEyeOpen < 0.1)
        #expect(c.rightEyeOpen > 0.8)
    }

    @Test func degenerateMeshGivesFiniteOutputs() {
        let flat = FaceLandmarks(mesh: Array(repeating: Point3(x: 1, y: 1, z: 0), count: 468), presence: 1)
        let nan = FaceLandmarks(mesh: Array(repeating: Point3(x: .nan, y: 1, z: 0), count: 468), presence: 1)
        for l in [flat, nan, FaceLandmarks(mesh: [], presence: 0)] {
            let pose = HeadPose(l), c = FaceClassification(l)
            for v in [pose.roll, pose.yaw, pose.pitch, c.smiling, c.leftEyeOpen, c.rightEyeOpen] { #expect(v.isFinite) }
        }
    }
}
