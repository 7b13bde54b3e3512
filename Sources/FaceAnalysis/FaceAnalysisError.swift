/// Everything the face analysis can fail on, each naming what failed.
public enum FaceAnalysisError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A model file is missing from the models directory.
    case missingModel(file: String, directory: String)
    /// A model file exists but cannot be read.
    case modelUnreadable(file: String, reason: String)
    /// A model file's SHA-256 is not the catalogue's.
    case modelHashMismatch(file: String, expected: String, actual: String)
    /// A stage asked for a model its plan did not load (a stage that
    /// does not declare every model it runs).
    case modelNotLoaded(file: String)
    /// A model loaded but its tensors are not what the decoder expects.
    case unexpectedModelShape(model: String, detail: String)
    /// An option is out of range.
    case invalidOption(String)
    /// The inference engine failed while running `model`.
    case inference(model: String, message: String)
    /// The image cannot be searched at its size: a detection level it
    /// needs is past ImageCore's limits (a side over 32 768 px).
    case imageUnsearchable(width: Int, height: Int, reason: String)

    public var description: String {
        switch self {
        case let .missingModel(file, directory): "face model \(file) not found in \(directory) (run `make models`)"
        case let .modelUnreadable(file, reason): "face model \(file) could not be read: \(reason)"
        case let .modelHashMismatch(file, expected, actual):
            "face model \(file) has SHA-256 \(actual), expected \(expected) (re-run `make models`)"
        case let .modelNotLoaded(file): "face model \(file) is not part of this run's plan (its stage does not declare it)"
        case let .unexpectedModelShape(model, detail): "face model \(model) has unexpected tensors: \(detail)"
        case let .invalidOption(message): "invalid face option: \(message)"
        case let .inference(model, message): "inference failed in \(model): \(message)"
        case let .imageUnsearchable(width, height, reason): "the \(width)×\(height) image cannot be searched for faces: \(reason)"
        }
    }
}
