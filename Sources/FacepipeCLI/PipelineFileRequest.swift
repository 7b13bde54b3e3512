#if canImport(Glibc)
import ArgumentParser
import Glibc
import Pipeline
import RunFolders
#endif

/// A command line that names a pipeline file instead of a pipeline:
/// `facepipe run --pipeline MyPipeline.swift INPUT… --out DIR` or
/// `facepipe describe --pipeline MyPipeline.swift`. The file is compiled
/// into a tool (``PipelineFileBuild``) that is run with the same arguments,
/// the file replaced by the pipeline's name.
///
/// The rule: a Swift file is compiled only as the value of `--pipeline`.
/// A file reached by a shell glob (`facepipe run dl/* --out o`) is an INPUT
/// or `describe`'s NAME, and a `.swift` one there is refused before
/// anything runs (``PipelineFileRequest/positionalRefusal(_:verb:)``).
package struct PipelineFileRequest: Equatable {
    /// The file as the user wrote it (so the compiler's messages name it so).
    package let file: String
    /// The command line without the file: where it was, a placeholder
    /// (``arguments(naming:)`` puts the pipeline's name there).
    private let template: [Argument]

    private enum Argument: Equatable {
        case given(String)
        case pipelineName
        case pipelineOption(prefix: String)
    }

    /// The extension that marks an argument as a pipeline file.
    static let fileExtension = ".swift"

    /// The request in `arguments` (without the program's name); nil when
    /// they name no pipeline file or do not parse.
    package static func recognize(_ arguments: [String]) -> PipelineFileRequest? {
        guard let command = try? Facepipe.parseAsRoot(arguments) else { return nil }
        return recognize(command, arguments: arguments)
    }

    /// The same, for `arguments` already parsed into `command`.
    static func recognize(_ command: ParsableCommand, arguments: [String]) -> PipelineFileRequest? {
        guard let verbIndex = arguments.firstIndex(where: { !$0.hasPrefix("-") }) else { return nil }
        let option: String?
        if let run = command as? RunCommand {
            option = run.pipeline
        } else if let describe = command as? DescribeCommand {
            option = describe.pipelineOption
        } else {
            option = nil
        }
        guard let option, option.hasSuffix(fileExtension) else { return nil }
        // `--pipeline FILE` or `--pipeline=FILE`: the name goes where the file was.
        let after = arguments.index(after: verbIndex)
        var template = arguments.map(Argument.given)
        if let i = arguments[after...].firstIndex(of: "--pipeline=" + option) {
            template[i] = .pipelineOption(prefix: "--pipeline=")
        } else if let i = arguments[after...].indices.first(where: {
            arguments[$0] == option && $0 > after && arguments[$0 - 1] == "--pipeline"
        }) {
            template[i] = .pipelineName
        } else {
            return nil
        }
        return PipelineFileRequest(file: option, template: template)
    }

    /// The refusal of a `.swift` file given where a pipeline file is never
    /// read (an INPUT of `run`, the NAME of `describe`); nil for any other
    /// argument. A folder whose name ends in `.swift` is an input like any folder.
    static func positionalRefusal(_ argument: String, verb: String) -> String? {
        guard argument.hasSuffix(fileExtension) else { return nil }
        var status = stat()
        if stat(argument, &status) == 0, status.st_mode & S_IFMT == S_IFDIR { return nil }
        let shown = TerminalText.escaped(argument)
        return "\(shown) is a Swift file: facepipe compiles a pipeline file only when it follows --pipeline "
            + "(`facepipe \(verb) --pipeline \(shown)\(verb == "run" ? " …" : "")`), so that a file reached by a shell glob never runs code"
    }

    /// The command line for the built tool: the file replaced by `pipeline`.
    package func arguments(naming pipeline: String) -> [String] {
        template.map { argument in
            switch argument {
            case .given(let text): return text
            case .pipelineName: return pipeline
            case .pipelineOption(let prefix): return prefix + pipeline
            }
        }
    }
}
