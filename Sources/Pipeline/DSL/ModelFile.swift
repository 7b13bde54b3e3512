/// A model file a stage needs, with the SHA-256 it must have.
/// `compile()` checks presence and hash before any archive is opened.
public struct ModelFile: Sendable, Hashable, Codable {
    public let fileName: String
    /// Lower-case hex SHA-256 of the file's bytes.
    public let sha256: String

    public init(fileName: String, sha256: String) {
        self.fileName = fileName
        self.sha256 = sha256
    }

    // The verified MediaPipe models (values from scripts/models.sha256).
    public static let shortRangeDetector = ModelFile(
        fileName: "face_detection_short_range.tflite",
        sha256: "3bc182eb9f33925d9e58b5c8d59308a760f4adea8f282370e428c51212c26633")
    public static let fullRangeDetector = ModelFile(
        fileName: "face_detection_full_range.tflite",
        sha256: "99bf9494d84f50acc6617d89873f71bf6635a841ea699c17cb3377f9507cfec3")
    public static let sparseFullRangeDetector = ModelFile(
        fileName: "face_detection_full_range_sparse.tflite",
        sha256: "671dd2f9ed11a78436fc21cc42357a803dfc6f73e9fb86541be942d5716c2dce")
    public static let backCameraDetector = ModelFile(
        fileName: "face_detection_back.tflite",
        sha256: "e376cf6b168d5ece8a3cedb94acc4eb168a136aede125ccc3d903ef38f5beda8")
    public static let faceMesh = ModelFile(
        fileName: "face_landmark.tflite",
        sha256: "2efcb4f4de43c7614b80a3cc3e8a37354b3b3b40f75cce20f6f38f0f25d65493")
    public static let iris = ModelFile(
        fileName: "iris_landmark.tflite",
        sha256: "d1744d2a09c25f501d39eba4faff47e53ecca8852c5ce19bce8eeac39357521f")
}
