import Inference

/// How a face model's file becomes a planned ``Model``: a `.tflite` file
/// (MediaPipe's six models), or YuNet-s's weights (`FPYUNET1`,
/// docs/YUNET.md) planned as ``YuNetGraph`` declares the network. Each
/// catalogue row names its format (``FaceModel/format``);
/// ``FaceModels/load(_:from:kernels:)`` verifies every file the same way
/// (SHA-256, then this parse, then the tensor sizes) whatever its format.
public enum ModelFileFormat: Sendable, Hashable {
    case tflite
    case yunetWeights

    /// The format `bytes` are in: YuNet-s's weights when they start with
    /// their magic, otherwise TFLite (whose parser names what is wrong).
    public init(sniffing bytes: [UInt8]) {
        self = bytes.starts(with: YuNetWeights.magic) ? .yunetWeights : .tflite
    }

    /// Parses and plans `bytes` (read from `file`, named in errors).
    public func model(bytes: [UInt8], file: String, kernels: KernelSet = .best) throws -> Model {
        switch self {
        case .tflite: try Model(bytes: bytes, kernels: kernels)
        case .yunetWeights: try YuNetGraph.model(try YuNetWeights(bytes: bytes, file: file), kernels: kernels)
        }
    }

    /// Values of the planned input for a square picture of `side` pixels
    /// (YuNet-s's input carries its one-pixel border: ``YuNetGraph/border``).
    func inputElementCount(side: Int) -> Int {
        switch self {
        case .tflite: side * side * 3
        case .yunetWeights: (side + 2 * YuNetGraph.border) * (side + 2 * YuNetGraph.border) * 3
        }
    }
}
