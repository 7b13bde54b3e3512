import ImageCore

/// One face YuNet-s found, in picture pixels (origin top-left, x right, y down).
public struct YuNetDetection: Sendable, Hashable, Codable {
    /// The face box.
    public var box: Rect
    /// √(class probability × objectness), 0…1.
    public var score: Float
    /// Five points in `Landmark` order.
    public var landmarks: [Point]

    /// YuNet's landmarks. Sides are the subject's (OpenCV's FaceDetectorYN
    /// order): `rightEye` is on the picture's left for a face looking at the camera.
    public enum Landmark: Int, Sendable, CaseIterable {
        case rightEye = 0, leftEye, noseTip, mouthRight, mouthLeft
    }

    public init(box: Rect, score: Float, landmarks: [Point]) {
        self.box = box
        self.score = score
        self.landmarks = landmarks
    }
}
