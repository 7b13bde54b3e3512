import FaceAnalysis
import Foundation
import ImageCore
import Testing
import _TestSupport

func allFinite(_ landmarks: FaceLandmarks) -> Bool {
    (landmarks.mesh + landmarks.leftIris + landmarks.rightIris + landmarks.leftEyeContour + landmarks.rightEyeContour)
        .allSatisfy { $0.x.isFinite && $0.y.isFinite && $0.z.isFinite } && landmarks.presence.isFinite
}

#if DEBUG
let isDebugBuild = true
#else
let isDebugBuild = false
#endif

struct FaceAnalyzerBehaviourTests {
    /// t1 (six ~100-px faces) at full size and at half size (~50-px faces) in a
    /// 2560×1800 canvas: the whole frame shrinks faces to 4–8 px in the detector
    /// input, so only tiling finds them.
    @Test(.disabled(if: isDebugBuild, "runs the detector ~115 times: minutes in a debug build; `make test` runs it (release)"))
    func accurateModeTilesFindSmallFacesInLargeImages() throws {
        let analyzer = try FaceTestSupport.analyzer()
        let t1 = try FaceTestSupport.photo("t1.jpg")
        let reference = try ReferencePhoto.load("t1")
        let truth = try #require(reference.modes["accurate"])
        let half = try t1.downscaledAreaAverage(width: t1.width / 2, height: t1.height / 2)
        var canvas = t1.pasted(into: 2560, 1800, at: 40, 60)
        canvas.paste(half, at: 1500, 1100)
        var expected = truth.map { Rect(x: $0.box[0] + 40, y: $0.box[1] + 60, width: $0.box[2], height: $0.box[3]) }
        expected += truth.map { Rect(x: $0.box[0] / 2 + 1500, y: $0.box[1] / 2 + 1100, width: $0.box[2] / 2, height: $0.box[3] / 2) }

        let wholeFrame = try analyzer.detect(in: canvas, options: FaceDetectionOptions(mode: .pyramid, minFaceSize: 0), allowTiling: false)
        let tiled = try analyzer.detect(in: canvas, options: FaceDetectionOptions(mode: .pyramid, minFaceSize: 0.015))
        func recall(_ faces: [FaceDetection], _ boxes: [Rect]) -> Int {
            boxes.filter { box in faces.contains { $0.box.intersectionOverUnion(box) >= 0.5 } }.count
        }
        let small = expected.filter { $0.width < 64 }
        print("tiling: whole frame \(recall(wholeFrame, expected))/\(expected.count), tiled \(recall(tiled, expected))/\(expected.count), under 64 px \(recall(tiled, small))/\(small.count), detections \(tiled.count)")
        #expect(recall(wholeFrame, expected) <= 2)
        #expect(recall(tiled, expected) >= 10)
        #expect(recall(tiled, small) >= 5)
        // Precision: few detections that match no face.
        let unmatched = tiled.filter { face in !expected.contains { face.box.intersectionOverUnion($0) >= 0.3 } }
        #expect(unmatched.count <= 2, "\(unmatched)")
    }

    @Test func fastModeMissesSmallGroupFacesThatAccurateFinds() throws {
        let analyzer = try FaceTestSupport.analyzer()
        let t1 = try FaceTestSupport.photo("t1.jpg")
        #expect(try analyzer.detect(in: t1, options: FaceDetectionOptions(mode: .fast, minFaceSize: 0)).isEmpty)
        #expect(try analyzer.detect(in: t1, options: FaceDetectionOptions(mode: .pyramid, minFaceSize: 0.05)).count == 6)
    }

    @Test func minFaceSizeDropsNarrowFaces() throws {
        let analyzer = try FaceTestSupport.analyzer()
        let t1 = try FaceTestSupport.photo("t1.jpg")
        // t1's faces are 80–120 px wide in a 1280-px image: 0.1 keeps only the wider ones.
        let all = try analyzer.detect(in: t1, options: FaceDetectionOptions(mode: .pyramid, minFaceSize: 0.05))
        let wide = try analyzer.detect(in: t1, options: FaceDetectionOptions(mode: .pyramid, minFaceSize: 0.085))
        #expect(wide.count < all.count)
        #expect(wide.allSatisfy { $0.box.width >= 0.085 * 1280 })
    }

    /// Also in accurate mode, where the face is YuNet's and BlazeFace's
    /// together and Face Mesh's region is made from BlazeFace's box it
    /// stands for (`RotatedSquare.faceMeshROI`).
    /// Accurate mode to issue 37's spec: ±20°, within 4°.
    @Test(arguments: [(DetectorMode.pyramid, [-25, 30], 3), (.accurate, [-20, 20], 4)] as [(DetectorMode, [Float], Float)])
    func rotatingTheImageChangesRollByTheAngle(_ mode: DetectorMode, angles: [Float], tolerance: Float) throws {
        let analyzer = try FaceTestSupport.analyzer()
        let astronaut = try FaceTestSupport.photo("astronaut.png")
        func roll(_ image: RGBImage) throws -> Float {
            let face = try #require(try analyzer.detect(in: image, options: FaceDetectionOptions(mode: mode)).first)
            return HeadPose(try #require(try analyzer.landmarks(for: face, in: image))).roll
        }
        let upright = try roll(astronaut)
        for angle in angles {
            let turned = try roll(astronaut.rotated(degrees: angle))
            #expect(abs(turned - upright - angle) < tolerance, "\(mode), rotated \(angle)°: roll \(upright) → \(turned)")
        }
    }

    @Test func mirroringFlipsYawAndSwapsEyes() throws {
        let analyzer = try FaceTestSupport.analyzer()
        for file in ["lenna.png", "breakingbad.jpg"] {
            let image = try FaceTestSupport.photo(file)
            func analyse(_ image: RGBImage) throws -> (HeadPose, FaceLandmarks, Float) {
                // The widest face: the same person in both (breakingbad's two faces score within a few hundredths).
                let faces = try analyzer.detect(in: image, options: FaceDetectionOptions(mode: .pyramid))
                let face = try #require(faces.max { $0.box.width < $1.box.width })
                let landmarks = try #require(try analyzer.landmarks(for: face, in: image))
                return (HeadPose(landmarks), landmarks, face.box.width)
            }
            let (pose, landmarks, faceWidth) = try analyse(image)
            let (mirroredPose, mirroredLandmarks, _) = try analyse(image.mirrored())
            #expect(abs(pose.yaw) > 8, "\(file): yaw \(pose.yaw)")
            // The mesh model is not exactly mirror-symmetric: a few degrees of slack.
            #expect(abs(pose.yaw + mirroredPose.yaw) < 7, "\(file): yaw \(pose.yaw) mirrored \(mirroredPose.yaw)")
            // 7°: the detectors (stride-2 SAME padding) are not mirror-equivariant, and accurate mode
            // merges the whole frame's full-range box with the short-range canvases' boxes, so the mesh
            // ROI (rotated by the detector's eye line) differs a little between the two pictures.
            #expect(abs(pose.roll + mirroredPose.roll) < 7, "\(file): roll \(pose.roll) mirrored \(mirroredPose.roll)")
            // The subject's left eye in the mirror is the original's right eye (within 1 % of the
            // face width, at least 3 px: the detector's box is not exactly mirror-symmetric either).
            let w = Float(image.width)
            #expect(abs(mirroredLandmarks.leftEyeCenter.x - (w - landmarks.rightEyeCenter.x)) < max(3, 0.01 * faceWidth), "\(file)")
            let c = FaceClassification(landmarks), m = FaceClassification(mirroredLandmarks)
            #expect(abs(c.leftEyeOpen - m.rightEyeOpen) < 0.15 && abs(c.rightEyeOpen - m.leftEyeOpen) < 0.15)
        }
    }

    struct BadImage: Sendable, CustomStringConvertible {
        var description: String
        var width: Int
        var height: Int
    }

    @Test(arguments: [BadImage(description: "1×1", width: 1, height: 1), BadImage(description: "10000×10", width: 10000, height: 10),
                      BadImage(description: "10×10000", width: 10, height: 10000), BadImage(description: "0×0", width: 0, height: 0)])
    func degenerateImagesGiveNoFaces(case bad: BadImage) throws {
        let analyzer = try FaceTestSupport.analyzer()
        let image = RGBImage(width: bad.width, height: bad.height, fill: (200, 180, 160))
        for mode in DetectorMode.allCases {
            #expect(try analyzer.detect(in: image, options: FaceDetectionOptions(mode: mode, minFaceSize: 0.1)).isEmpty)
        }
        let fake = FaceDetection(box: Rect(x: 0, y: 0, width: 1, height: 1), score: 0.9, keypoints: Array(repeating: Point(x: 0.5, y: 0.5), count: 6))
        if let landmarks = try analyzer.landmarks(for: fake, in: image) { #expect(allFinite(landmarks)) }
    }

    /// A narrow image taller than ImageCore's 32 768-px side cannot be
    /// searched in accurate mode; the error says so, naming the image's
    /// size, not a model.
    @Test func aTooTallNarrowImageFailsNamingItsSize() throws {
        let analyzer = try FaceTestSupport.analyzer()
        let image = RGBImage(width: 16, height: 40_000, fill: (200, 180, 160))
        let error = try #require(throws: FaceAnalysisError.self) {
            try analyzer.detect(in: image, options: FaceDetectionOptions(mode: .pyramid, minFaceSize: .pixels(20)))
        }
        guard case .imageUnsearchable(16, 40_000, _) = error else {
            Issue.record("expected imageUnsearchable, got \(error)")
            return
        }
        #expect(!error.description.contains(".tflite"), "\(error)")
        #expect(error.description.contains("16×40000 image"), "\(error)")
    }

    @Test func greyscalePhotoStillFindsTheFace() throws {
        let analyzer = try FaceTestSupport.analyzer()
        let einstein = try FaceTestSupport.photo("einstein.jpg")  // stored as one-channel JPEG
        // The face is hard for every BlazeFace model: full range scores it 0.57, sparse 0.67, short
        // range 0.55 on accurate mode's pyramid (below its 0.6 canvas floor), so sparse is the check here.
        let faces = try analyzer.detect(in: einstein, options: FaceDetectionOptions(mode: .sparse))
        #expect(faces.count == 1)
    }

    @Test func facesCutByTheBorderKeepFiniteLandmarks() throws {
        let analyzer = try FaceTestSupport.analyzer()
        let astronaut = try FaceTestSupport.photo("astronaut.png")
        // Shift the image so the face (x≈177…272) is cut in half by the left border.
        let shifted = try astronaut.cropped(to: Rect(x: 225, y: 0, width: 287, height: 512))
        let faces = try analyzer.detect(in: shifted, options: FaceDetectionOptions(mode: .pyramid, minFaceSize: 0))
        for face in faces {
            #expect(face.box.width.isFinite && face.score > 0.5 && face.score <= 1)
            if let landmarks = try analyzer.landmarks(for: face, in: shifted) {
                #expect(allFinite(landmarks))
                #expect(HeadPose(landmarks).yaw.isFinite)
            }
        }
        // A detection whose landmark region lies almost entirely outside the image.
        let outside = FaceDetection(box: Rect(x: -180, y: -150, width: 200, height: 200), score: 0.9,
                                    keypoints: [Point(x: -120, y: -90), Point(x: -40, y: -90), Point(x: -80, y: -50),
                                                Point(x: -80, y: -10), Point(x: -170, y: -80), Point(x: 10, y: -80)])
        if let landmarks = try analyzer.landmarks(for: outside, in: shifted) { #expect(allFinite(landmarks)) }
    }

    @Test func detectionIsDeterministicAndSorted() throws {
        let analyzer = try FaceTestSupport.analyzer()
        let t1 = try FaceTestSupport.photo("t1.jpg")
        let options = FaceDetectionOptions(mode: .pyramid, minFaceSize: 0.05)
        let first = try analyzer.detect(in: t1, options: options)
        let second = try FaceTestSupport.analyzer().detect(in: t1, options: options)
        #expect(first == second)
        #expect(zip(first, first.dropFirst()).allSatisfy { $0.score >= $1.score })
    }

    @Test func missingModelsDirectoryNamesTheFile() {
        #expect(throws: FaceAnalysisError.missingModel(file: "face_detection_short_range.tflite", directory: "/nonexistent")) {
            try FaceModels.load([.shortRangeDetector, .faceMesh], from: URL(fileURLWithPath: "/nonexistent"))
        }
    }

    @Test func invalidOptionsAreRejected() throws {
        let analyzer = try FaceTestSupport.analyzer()
        let image = RGBImage(width: 8, height: 8)
        #expect(throws: FaceAnalysisError.self) { try analyzer.detect(in: image, options: FaceDetectionOptions(minFaceSize: .fraction(.nan))) }
        #expect(throws: FaceAnalysisError.self) { try analyzer.detect(in: image, options: FaceDetectionOptions(minScore: 2)) }
    }
}
