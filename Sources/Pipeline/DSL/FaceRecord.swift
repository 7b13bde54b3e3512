import FaceAnalysis
import ImageCore

/// One detected face and whatever later stages added to it.
/// Coordinates are pixels of the upright image, origin top-left.
public struct FaceRecord: Sendable, Hashable, Codable {
    /// 0-based position in detection order (stable across filters).
    public var face: Int
    /// Detector confidence, 0…1.
    public var confidence: Float
    public var box: Rect
    /// The detector's keypoints: left eye, right eye, nose tip, mouth,
    /// left tragion, right tragion (the image's sides); four (no tragions)
    /// for a face only YuNet found.
    public var keypoints: [Point]
    /// Which detector family found the face (both, in accurate mode).
    public var foundBy: FaceDetection.Detectors
    /// Why a filter rejected the face; nil while kept.
    public var rejection: String?
    /// Named point sets added by landmark stages ("mesh", "left_iris",
    /// "contour.face_oval", "ibug68", …), in the order they were added.
    public var pointGroups: [PointGroup] = []
    /// Head pose in degrees with ML Kit's signs.
    public var pose: HeadAngles?
    public var classification: FaceScores?
    /// Capture quality, 0…1, higher is better.
    public var quality: Float?
    public var trackingID: Int?
    /// The region ``Redact`` replaced (where its weight is at least ½), nil
    /// when the face was not redacted.
    public var redaction: Rect?
    /// The aligned crops ``Crops`` cut from the face, in stage order.
    public var crops: [AlignedCrop] = []

    public init(face: Int, confidence: Float, box: Rect, keypoints: [Point] = [], foundBy: FaceDetection.Detectors = .blazeFace) {
        self.face = face
        self.confidence = confidence
        self.box = box
        self.keypoints = keypoints
        self.foundBy = foundBy
    }

    public var isKept: Bool { rejection == nil }

    /// Adds or replaces the group called `group.name`.
    public mutating func setPoints(_ group: PointGroup) {
        if let i = pointGroups.firstIndex(where: { $0.name == group.name }) {
            pointGroups[i] = group
        } else {
            pointGroups.append(group)
        }
    }
}

/// A named list of points in upright-image pixels; `z` (relative depth, on
/// the x scale) is 0 for 2-D sets.
public struct PointGroup: Sendable, Hashable, Codable {
    public var name: String
    public var x: [Float]
    public var y: [Float]
    public var z: [Float]?

    public init(name: String, points: [Point]) {
        self.name = name
        x = points.map(\.x)
        y = points.map(\.y)
        z = nil
    }

    public init(name: String, x: [Float], y: [Float], z: [Float]?) {
        precondition(x.count == y.count && (z == nil || z!.count == x.count))
        self.name = name; self.x = x; self.y = y; self.z = z
    }

    public var count: Int { x.count }
    public var points: [Point] { zip(x, y).map { Point(x: $0, y: $1) } }
}

/// Head Euler angles in degrees (ML Kit signs: pitch + = face turned up,
/// yaw + = turned toward the camera's right, roll + = counter-clockwise).
public struct HeadAngles: Sendable, Hashable, Codable {
    public var roll: Float
    public var yaw: Float
    public var pitch: Float
    public init(roll: Float, yaw: Float, pitch: Float) { self.roll = roll; self.yaw = yaw; self.pitch = pitch }
}

/// Classification probabilities, 0…1.
public struct FaceScores: Sendable, Hashable, Codable {
    public var smiling: Float
    public var leftEyeOpen: Float
    public var rightEyeOpen: Float
    public init(smiling: Float, leftEyeOpen: Float, rightEyeOpen: Float) {
        self.smiling = smiling; self.leftEyeOpen = leftEyeOpen; self.rightEyeOpen = rightEyeOpen
    }
}
