import ArgumentParser

/// A command line that names a pipeline file instead of a pipeline:
/// `facepipe run ./MyPipeline.swift INPUT… --out DIR`,
/// `facepipe run --pipeline MyPipeline.swift …` or `facepipe describe MyPipeline.swift`.
/// The file is compiled into a tool (``PipelineFileBuild``) that is run
/// with the same arguments, the file replaced by the pipeline's name.
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
        let after = arguments.index(after: verbIndex)
        if let run = command as? RunCommand {
            if let option = run.pipeline {
                guard option.hasSuffix(fileExtension) else { return nil }
                // `--pipeline FILE` or `--pipeline=FILE`: the name goes where the file was.
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
            // `run FILE INPUT…`: the file is the first positional argument;
            // it becomes `--pipeline NAME` right after the verb.
            guard let file = run.arguments.first, file.hasSuffix(fileExtension),
                  let i = arguments[after...].firstIndex(of: file) else { return nil }
            var template = arguments.map(Argument.given)
            template.remove(at: i)
            template.insert(contentsOf: [.given("--pipeline"), .pipelineName], at: after)
            return PipelineFileRequest(file: file, template: template)
        }
        if let describe = command as? DescribeCommand {
            guard describe.pipeline.hasSuffix(fileExtension),
                  let i = arguments[after...].firstIndex(of: describe.pipeline) else { return nil }
            var template = arguments.map(Argument.given)
            template[i] = .pipelineName
            return PipelineFileRequest(file: describe.pipeline, template: template)
        }
        return nil
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
