#if canImport(Glibc)
import Glibc
#endif
import Pipeline
import Pipelines

/// What `facepipe run`'s positional arguments mean: the pipeline to run and
/// the inputs. `facepipe run INPUT… --out DIR` runs the default pipeline
/// (the registry's first, `faces`); `--pipeline NAME` picks another; the
/// older form `facepipe run NAME INPUT…` still works when NAME is a
/// registered pipeline and nothing called NAME exists here. A first argument
/// that could be read both ways is refused, never guessed.
struct RunArguments: Equatable {
    let pipeline: String
    let inputs: [String]

    /// The pipeline run when neither `--pipeline` nor a leading name picks one.
    static var defaultPipeline: String { CommandLineContext.registry.names[0] }

    /// Reads `arguments` (the positional ones, in order) with the
    /// `--pipeline` option; `exists` says whether a path names anything
    /// (a file, a folder, a link, a device), as seen from the current folder.
    static func resolve(_ arguments: [String], pipelineOption: String?, registered: [String] = CommandLineContext.registry.names,
                        exists: (String) -> Bool = RunArguments.pathExists) throws(RunArgumentsError) -> RunArguments {
        let first = arguments.first
        let firstNamesPipeline = first.map { registered.contains($0) } ?? false
        let firstExists = first.map(exists) ?? false
        let resolved: RunArguments
        if let pipelineOption {
            if let first, firstNamesPipeline, !firstExists {
                throw .pipelineGivenTwice(option: pipelineOption, argument: first)
            }
            resolved = RunArguments(pipeline: pipelineOption, inputs: arguments)
        } else if let first, firstNamesPipeline {
            if firstExists { throw .ambiguousFirstArgument(first) }
            resolved = RunArguments(pipeline: first, inputs: Array(arguments.dropFirst()))
        } else {
            if let first, first != "-", !firstExists, !first.contains("/"), !first.contains(".") {
                throw .neitherPipelineNorInput(first, registered: registered)
            }
            resolved = RunArguments(pipeline: defaultPipeline, inputs: arguments)
        }
        guard !resolved.inputs.isEmpty else { throw .noInput(pipeline: resolved.pipeline) }
        // A Swift file is compiled only after --pipeline, never as an INPUT (`run dl/*`).
        for input in resolved.inputs {
            if let refusal = PipelineFileRequest.positionalRefusal(input, verb: "run") { throw .swiftFileAsInput(refusal) }
        }
        return resolved
    }

    /// Whether `path` names anything, without following a final link (a
    /// dangling link named `faces` is still something called `faces`).
    static func pathExists(_ path: String) -> Bool {
        var status = stat()
        return lstat(path, &status) == 0
    }
}

/// Why `facepipe run`'s arguments name no pipeline or no input (exit 2).
enum RunArgumentsError: Error, Equatable, CustomStringConvertible {
    /// The first argument is a pipeline's name and also exists as a path here.
    case ambiguousFirstArgument(String)
    /// `--pipeline` was given and the first argument is another pipeline's name (not a path here).
    case pipelineGivenTwice(option: String, argument: String)
    /// The first argument looks like a name, is not a registered pipeline and does not exist here.
    case neitherPipelineNorInput(String, registered: [String])
    /// No input after the pipeline.
    case noInput(pipeline: String)
    /// An INPUT is a `.swift` file (the message says to name it with --pipeline).
    case swiftFileAsInput(String)

    var description: String {
        switch self {
        case let .ambiguousFirstArgument(name):
            return "\(name) is both a pipeline and a file or folder here: write `--pipeline \(name) INPUT…` "
                + "to run the pipeline \(name), or ./\(name) to read it as an input with the default pipeline "
                + "(\(RunArguments.defaultPipeline))"
        case let .pipelineGivenTwice(option, argument):
            return "two pipelines given: --pipeline \(option) and \(argument) (a pipeline's name, and no file or folder "
                + "here is called \(argument)); give one"
        case let .neitherPipelineNorInput(name, registered):
            return "unknown pipeline \(name)\(NameSuggestion.clause(for: name, among: registered)), and no file or folder here "
                + "is called \(name) (pipelines: \(registered.joined(separator: ", ")))"
        case let .noInput(pipeline):
            return "give at least one input to run \(pipeline) on"
        case let .swiftFileAsInput(refusal):
            return refusal
        }
    }
}
