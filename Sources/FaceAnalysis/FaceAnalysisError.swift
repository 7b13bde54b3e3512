/// Everything the face analysis can fail on, each naming what failed.
public enum FaceAnalysisError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A model file is missing from the models directory.
    case missingModel(file: String, directory: String)
    /// A model loaded but its tensors are not what the decoder expects.
    case unexpectedModelShape(model: String, detail: String)
    /// An option is out of range.
    case invalidOption(String)
    /// The inference engine failed while running `model`.
    case inference(model: String, message: String)

    public var description: String {
        switch self {
        case let .missingModel(file, directory): "face model \(file) not found in \(directory) (run `make models`)"
        case let .unexpectedModelShape(model, detail): "face model \(model) has unexpected tensors: \(detail)"
        case let .invalidOption(message): "invalid face option: \(message)"
        case let .inference(model, message): "inference failed in \(model): \(message)"
        }
    }
}
