import ArgumentParser
import Foundation
import Pipeline
import Pipelines

/// `facepipe describe NAME`: stages, options, models and fingerprints.
struct DescribeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "describe",
        abstract: "Print a pipeline's stages with their options and the models they need."
    )

    @Argument(help: "A pipeline name (see `facepipe pipelines`).")
    var pipeline: String

    func run() throws {
        let pipeline: Pipeline
        do {
            pipeline = try CommandLineContext.registry.named(self.pipeline)
        } catch {
            throw UsageFailure(message: error.description)
        }
        print("\(pipeline.name): \(pipeline.summary)")
        if !pipeline.rationale.isEmpty { print("why: \(pipeline.rationale)") }
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

/// A usage or setup problem: printed as `facepipe: error: …`, exit code 2.
struct UsageFailure: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}
