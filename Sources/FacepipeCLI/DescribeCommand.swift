import ArgumentParser
import Foundation
import Pipeline
import Pipelines

/// `facepipe describe NAME` (or `describe --pipeline NAME|FILE.swift`):
/// stages, options, models and fingerprints.
struct DescribeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "describe",
        abstract: "Print a pipeline's stages with their options and the models they need."
    )

    @Argument(help: "A pipeline name (see `facepipe pipelines`).")
    var name: String?

    @Option(name: .customLong("pipeline"), help: ArgumentHelp(
        "The pipeline: a name, or a pipeline file (FILE.swift: compiled, then described; a Swift file is compiled only after --pipeline).",
        valueName: "NAME|FILE.swift"))
    var pipelineOption: String?

    /// The pipeline asked for, by --pipeline or as NAME.
    var pipeline: String { pipelineOption ?? name ?? "" }

    func validate() throws {
        switch (name, pipelineOption) {
        case (nil, nil): throw ValidationError("give a pipeline: NAME or --pipeline NAME|FILE.swift")
        case (.some, .some): throw ValidationError("give one pipeline: NAME or --pipeline, not both")
        case (.some(let name), nil):
            if let refusal = PipelineFileRequest.positionalRefusal(name, verb: "describe") { throw ValidationError(refusal) }
        case (nil, .some): break
        }
    }

    func run() throws {
        let pipeline: Pipeline
        do {
            pipeline = try CommandLineContext.registry.named(self.pipeline)
        } catch {
            throw UsageFailure(message: error.description)
        }
        print("\(pipeline.name): \(pipeline.summary)")
        if !pipeline.rationale.isEmpty { print("why: \(pipeline.rationale)") }
        for line in ArithmeticLines.of(pipeline) { print(line) }
        print("stages:")
        for (i, stage) in pipeline.stages.enumerated() {
            let lines = stage.describedLines()
            print("  \(i + 1). \(lines[0])")
            for line in lines.dropFirst() { print("     \(line)") }
        }
        let models = pipeline.models.sorted()
        if !models.isEmpty {
            print("models (verified by SHA-256 before a run):")
            for model in models { print("  \(model.fileName)  \(model.sha256)") }
        }
    }
}

/// What `describe` says a run computes in int8, from the plans the run
/// makes (``CompiledPipeline/int8Plans()``), not from prose: the pipeline
/// is compiled with the models a run would use; without them, it says so.
enum ArithmeticLines {
    static func of(_ pipeline: Pipeline) -> [String] {
        guard !pipeline.models.isEmpty else { return [] }
        let plans: [Int8Plan]
        do {
            plans = try ModelSearchPath.forThisProcess(option: nil).compile(pipeline).int8Plans()
        } catch {
            return ["arithmetic: unknown without the models (\(error))"]
        }
        guard !plans.isEmpty else { return ["arithmetic: every model in fp32 (from the plans a run makes)"] }
        return ["arithmetic (from the plans a run makes; int8 sums are exact, the same bytes on every CPU):"]
            + plans.map { "  " + $0.line }
            + ["  every other model and layer in fp32"]
    }
}

/// A usage or setup problem: printed as `facepipe: error: …`, exit code 2.
struct UsageFailure: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}
