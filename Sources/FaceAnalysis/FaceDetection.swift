import ImageCore

/// One detected face: box, confidence and keypoints (BlazeFace's six, or
/// four from YuNet alone), in upright-image pixels (origin top-left, x
/// right, y down), and which detectors found it.
public struct FaceDetection: Sendable, Hashable, Codable {
    /// The face box (BlazeFace's box covers roughly brows to chin, ear to
    /// ear; for a face turned in-plane by more than 10°, `FaceAnalyzer.detect`
    /// reports it scaled about its centre as `TurnedFaceBox` says).
    public var box: Rect
    /// Detector confidence, 0…1.
    public var score: Float
    /// Keypoints in `Keypoint` order: six, or four (no tragions) for a
    /// face only YuNet found.
    public var keypoints: [Point]
    /// Which detector family found the face.
    public var foundBy: Detectors

    /// The detector families that found a face.
    public enum Detectors: String, Sendable, Hashable, Codable, CaseIterable {
        case blazeFace = "blazeface"
        case yunet
        /// Both, in `DetectorMode.accurate` (``DetectorFusion``).
        case both = "yunet+blazeface"
    }

    /// Faces from this size (longer box side, pixels) that only YuNet found
    /// are checked by Face Mesh's presence; smaller ones are not (below it
    /// Face Mesh rejects real faces in crowds: docs/BENCHMARKS.md).
    public static let yunetSecondOpinionSize: Float = 64
    /// …and that YuNet scores under this. On both labelled sets every false
    /// face of 64 px and more only YuNet found scored 0.62–0.73, while real
    /// blurred faces (a crowd photo scaled up 2×) that YuNet scored
    /// 0.79–0.87 and BlazeFace did not confirm were rejected by Face Mesh
    /// (presence 0.00–0.19): docs/BENCHMARKS.md.
    public static let yunetSecondOpinionScore: Float = 0.75

    /// Whether Face Mesh's presence output is asked before the face is kept
    /// (`FaceAnalyzer.landmarkOutcome`): yes for a face only BlazeFace found
    /// (MediaPipe's own practice) and for a large face only YuNet found
    /// with a middling score; no for a face both detectors found, for a
    /// small one only YuNet found, where the presence output is not
    /// calibrated, and for one YuNet is sure of. The rule is the row of
    /// the family that found it (`DetectorFamily.secondOpinion`).
    public var needsSecondOpinion: Bool {
        DetectorFamily.secondOpinion(of: foundBy)?.asks(about: self) ?? false
    }

    /// BlazeFace's keypoints. Sides are the model's: `leftEye` is the eye
    /// on the image's left, which is the subject's right eye for a face
    /// looking at the camera.
    public enum Keypoint: Int, Sendable, CaseIterable {
        case leftEye = 0, rightEye, noseTip, mouth, leftTragion, rightTragion
    }

    public init(box: Rect, score: Float, keypoints: [Point], foundBy: Detectors = .blazeFace) {
        self.box = box
        self.score = score
        self.keypoints = keypoints
        self.foundBy = foundBy
    }

    public subscript(_ keypoint: Keypoint) -> Point { keypoints[keypoint.rawValue] }
}

extension Rect {
    package var centerX: Float { x + width / 2 }
    /// The larger of width and height: a face box's size for `minFaceSize`.
    public var longerSide: Float { max(width, height) }
    package var centerY: Float { y + height / 2 }
}
