import ImageCore

/// One detected face: box, confidence and BlazeFace's six keypoints, in
/// upright-image pixels (origin top-left, x right, y down).
public struct FaceDetection: Sendable, Hashable, Codable {
    /// The face box (BlazeFace's box covers roughly brows to chin, ear to
    /// ear; for a face turned in-plane by more than 10°, `FaceAnalyzer.detect`
    /// reports it scaled about its centre as `TurnedFaceBox` says).
    public var box: Rect
    /// Detector confidence, 0…1.
    public var score: Float
    /// Six keypoints in `Keypoint` order.
    public var keypoints: [Point]

    /// BlazeFace's keypoints. Sides are the model's: `leftEye` is the eye
    /// on the image's left, which is the subject's right eye for a face
    /// looking at the camera.
    public enum Keypoint: Int, Sendable, CaseIterable {
        case leftEye = 0, rightEye, noseTip, mouth, leftTragion, rightTragion
    }

    public init(box: Rect, score: Float, keypoints: [Point]) {
        self.box = box
        self.score = score
        self.keypoints = keypoints
    }

    public subscript(_ keypoint: Keypoint) -> Point { keypoints[keypoint.rawValue] }
}

extension Rect {
    /// Intersection over union with `other`; 0 when either is empty.
    package func intersectionOverUnion(_ other: Rect) -> Float {
        let x0 = max(x, other.x), y0 = max(y, other.y)
        let x1 = min(x + width, other.x + other.width), y1 = min(y + height, other.y + other.height)
        guard x1 > x0, y1 > y0 else { return 0 }
        let intersection = (x1 - x0) * (y1 - y0)
        let union = width * height + other.width * other.height - intersection
        return union > 0 ? intersection / union : 0
    }

    package var centerX: Float { x + width / 2 }
    package var centerY: Float { y + height / 2 }
}
