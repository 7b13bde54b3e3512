import ArgumentParser

/// The root command: its subcommands are the verbs. Run through
/// ``FacepipeCommand``, which binds the pipelines and the command's name.
struct Facepipe: AsyncParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: CommandLineContext.commandName,
            abstract: "Face annotations for image archives: detect, landmark, annotate, with a reproducible manifest.",
            version: FacepipeVersion.string,
            subcommands: [RunCommand.self, PipelinesCommand.self, DescribeCommand.self, ModelCommand.self, DetectCommand.self,
                          ReportCommand.self, ExportCommand.self, MergeCommand.self]
                + BenchmarkCommands.top
        )
    }
}
