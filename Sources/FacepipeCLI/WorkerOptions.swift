import ArgumentParser
import Pipeline
import PipelineRunning

/// How many entries `run` and `detect` process at once and where their
/// models are, declared once. `-j4` is read as `-j 4`, as build tools do.
struct WorkerOptions: ParsableArguments {
    @Option(name: [.customShort("j", allowingJoined: true), .long],
            help: "Entries processed at once (default: this machine's core count).")
    var workers: Int?

    @Option(help: ArgumentHelp("Folder with the verified .tflite models (searched first; then $FACEPIPE_MODELS, the installed share folder, the checkout, ~/.cache/facepipe/models).", valueName: "DIR"))
    var models: String?

    /// `--workers`, or this machine's core count.
    var workerCount: Int { workers ?? RunConfiguration.defaultWorkers }
}
