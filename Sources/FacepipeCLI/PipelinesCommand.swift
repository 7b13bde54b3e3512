import ArgumentParser
import Pipelines

/// `facepipe pipelines`: the registered pipelines, one per line.
struct PipelinesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pipelines",
        abstract: "List the named pipelines (`facepipe describe NAME` shows one in detail)."
    )

    func run() throws {
        let width = CommandLineContext.registry.names.map(\.count).max() ?? 0
        for (i, pipeline) in CommandLineContext.registry.all.enumerated() {
            let name = pipeline.name.padding(toLength: width, withPad: " ", startingAt: 0)
            print("\(name)  \(pipeline.summary)\(i == 0 ? " (default)" : "")")
        }
    }
}
