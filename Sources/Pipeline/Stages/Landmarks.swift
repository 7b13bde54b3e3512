import FaceAnalysis
import ImageCore

/// Runs Face Mesh (468 points with relative depth) and optionally Iris on a
/// kept face, and adds the point sets users know from other APIs. Only
/// usable inside ``ForEachFace``.
///
/// Point groups added (see docs/OUTPUTS.md, "Per-image JSON"): `mesh` (468, with z),
/// `left_iris`/`right_iris` (5: centre then rim), `left_eye_contour`/
/// `right_eye_contour` (71), `mlkit_landmarks` (10, ML Kit order),
/// `contour.<kind>` (ML Kit's 15 contours), `ibug68`, `vision.<region>`.
public struct Landmarks: Stage {
    public var iris: Bool
    public var contours: Bool
    public var mlkitLandmarks: Bool
    public var ibug68: Bool
    public var visionRegions: Bool

    public init(iris: Bool = true, contours: Bool = true, mlkitLandmarks: Bool = true,
                ibug68: Bool = false, visionRegions: Bool = false) {
        self.iris = iris
        self.contours = contours
        self.mlkitLandmarks = mlkitLandmarks
        self.ibug68 = ibug68
        self.visionRegions = visionRegions
    }

    public static var optionTable: [StageOption<Self>] {
        [StageOption("iris", \.iris), StageOption("contours", \.contours), StageOption("mlkit-landmarks", \.mlkitLandmarks),
         StageOption("ibug68", \.ibug68), StageOption("vision-regions", \.visionRegions)]
    }

    public var definition: StageDefinition {
        StageDefinition("landmarks", optionsOf: self, models: iris ? [.faceMesh, .iris] : [.faceMesh])
    }

    /// Order of the `mlkit_landmarks` group.
    public static let mlkitLandmarkNames = [
        "left_eye", "right_eye", "left_ear", "right_ear", "left_cheek", "right_cheek",
        "nose_base", "mouth_left", "mouth_right", "mouth_bottom",
    ]

    public func process(_ slot: FaceSlot<FacePhase.Detected>, context: StageContext) throws -> FaceSlot<FacePhase.Landmarked> {
        var out = slot.advanced(to: FacePhase.Landmarked.self)
        let detection = FaceDetection(box: slot.face.box, score: slot.face.confidence, keypoints: slot.face.keypoints,
                                      foundBy: slot.face.foundBy)
        let outcome = try context.faceEngine().landmarkOutcome(for: detection, in: slot.image, iris: iris)
        guard let landmarks = outcome.landmarks else {
            // Face Mesh's presence is MediaPipe's second opinion on the
            // detection (asked when `FaceDetection.needsSecondOpinion`): a
            // face it rejects is not kept without landmarks.
            out.landmarks = nil
            out.face.rejection = outcome.rejectionReason
            return out
        }
        out.landmarks = landmarks
        out.face.setPoints(Self.group(.mesh, landmarks.mesh))
        if iris {
            out.face.setPoints(Self.group(.leftIris, landmarks.leftIris))
            out.face.setPoints(Self.group(.rightIris, landmarks.rightIris))
            out.face.setPoints(Self.group(.leftEyeContour, landmarks.leftEyeContour))
            out.face.setPoints(Self.group(.rightEyeContour, landmarks.rightEyeContour))
        }
        if mlkitLandmarks {
            let named = MLKitLandmarks(landmarks).named
            out.face.setPoints(PointGroup(.mlkitLandmarks, points: named.map(\.point)))
        }
        if contours {
            let all = MLKitContours(landmarks)
            for kind in MLKitContours.Kind.allCases {
                out.face.setPoints(PointGroup(.contour(kind), points: all[kind]))
            }
        }
        if ibug68 {
            out.face.setPoints(PointGroup(.ibug68, points: IBUG68(landmarks).points))
        }
        if visionRegions {
            let r = VisionRegions(landmarks)
            let regions: [(String, [Point])] = [
                ("face_contour", r.faceContour), ("left_eye", r.leftEye), ("right_eye", r.rightEye),
                ("left_eyebrow", r.leftEyebrow), ("right_eyebrow", r.rightEyebrow), ("nose", r.nose),
                ("nose_crest", r.noseCrest), ("median_line", r.medianLine), ("outer_lips", r.outerLips),
                ("inner_lips", r.innerLips), ("left_pupil", r.leftPupil), ("right_pupil", r.rightPupil),
            ]
            for (name, points) in regions { out.face.setPoints(PointGroup(.vision(name), points: points)) }
        }
        return out
    }

    static func group(_ name: PointGroup.Name, _ points: [Point3]) -> PointGroup {
        PointGroup(name: name.text, x: points.map(\.x), y: points.map(\.y), z: points.map(\.z))
    }
}
