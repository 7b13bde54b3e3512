import FaceAnalysis

/// Why a pipeline could not be compiled or a run could not start.
/// Every case names what failed; the CLI prints `description` and exits 2.
public enum PipelineError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A stage option is out of range or contradicts another.
    case invalidOption(stage: String, option: String, reason: String)
    /// A model file a stage needs is not in the models folder.
    case modelMissing(file: String, directory: String)
    /// A model file's SHA-256 is not the expected one.
    case modelHashMismatch(file: String, expected: String, actual: String)
    /// A model file exists but could not be read.
    case modelUnreadable(file: String, reason: String)
    /// `--set` names an option the stage does not have (`available`: the ones it has, maybe none).
    case unknownOption(stage: String, option: String, available: [String])
    /// `--from`/`--only`/`--set` names no stage of the pipeline.
    case unknownStage(name: String, pipeline: String, available: [String])
    /// No pipeline of that name is registered.
    case unknownPipeline(name: String, available: [String])
    /// The output folder cannot be used.
    case outputUnusable(path: String, reason: String)
    /// An archive path does not exist or cannot be read.
    case inputUnusable(path: String, reason: String)
    /// Invalid run configuration (workers, shard, flags).
    case invalidRunConfiguration(String)

    /// The error of a model that could not be loaded at compile time.
    init(loading error: FaceAnalysisError) {
        switch error {
        case let .missingModel(file, directory): self = .modelMissing(file: file, directory: directory)
        case let .modelHashMismatch(file, expected, actual): self = .modelHashMismatch(file: file, expected: expected, actual: actual)
        case let .modelUnreadable(file, reason): self = .modelUnreadable(file: file, reason: reason)
        case let .unexpectedModelShape(model, detail): self = .modelUnreadable(file: model, reason: "unexpected tensors: \(detail)")
        default: self = .modelUnreadable(file: "", reason: error.description)
        }
    }

    public var description: String {
        switch self {
        case let .invalidOption(stage, option, reason):
            return "stage \(stage): option \(option) \(reason)"
        case let .modelMissing(file, directory):
            return "model \(file) not found in \(directory) (run `make models` or pass --models DIR)"
        case let .modelHashMismatch(file, expected, actual):
            return "model \(file) has SHA-256 \(actual), expected \(expected) (re-run `make models`)"
        case let .modelUnreadable(file, reason):
            return "model \(file) could not be read: \(reason)"
        case let .unknownOption(stage, option, available):
            if available.isEmpty { return "stage \(stage) has no options to set (asked for \(option))" }
            return "stage \(stage) has no option \(option)\(NameSuggestion.clause(for: option, among: available)); options: \(available.joined(separator: ", "))"
        case let .unknownStage(name, pipeline, available):
            return "pipeline \(pipeline) has no stage \(name)\(NameSuggestion.clause(for: name, among: available)); stages: \(available.joined(separator: ", "))"
        case let .unknownPipeline(name, available):
            return "unknown pipeline \(name)\(NameSuggestion.clause(for: name, among: available)); available: \(available.joined(separator: ", "))"
        case let .outputUnusable(path, reason):
            return "output folder \(path): \(reason)"
        case let .inputUnusable(path, reason):
            return "archive \(path): \(reason)"
        case let .invalidRunConfiguration(reason):
            return reason
        }
    }
}
