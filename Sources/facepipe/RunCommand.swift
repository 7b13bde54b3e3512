import ArgumentParser
import Foundation
import Logging
import Pipeline
import Pipelines

/// `facepipe run PIPELINE ARCHIVE... --out DIR`.
struct RunCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run a pipeline over image archives: annotated PNGs, per-image JSON, manifest.csv, run.json.",
        discussion: """
        Entries are processed concurrently and written in archive order, so outputs are \
        byte-identical for any --workers. Stage results are cached in DIR/.cache: a rerun \
        reuses them, --from/--only choose what to recompute.

        Exit codes: 0 every entry ok; 1 some entries failed (each has an error row in \
        manifest.csv); 2 usage or setup error (nothing processed); 130 interrupted by \
        Ctrl-C (entries done so far are written; rerun with --resume).
        """
    )

    @Argument(help: "Pipeline name (see `facepipe pipelines`).")
    var pipeline: String

    @Argument(help: "Archives to read (.tar, .tar.gz/.bz2/.xz/.zst, .zip), processed in the order given.")
    var archives: [String]

    @Option(name: [.customShort("o"), .long], help: ArgumentHelp("Output folder (created if missing).", valueName: "DIR"))
    var out: String

    @Option(name: [.customShort("j"), .long], help: "Entries processed at once (default: this machine's core count).")
    var workers: Int = ProcessInfo.processInfo.activeProcessorCount

    @Option(name: .long, help: ArgumentHelp("Recompute this stage and all later ones; reuse cached results before it.", valueName: "STAGE"))
    var from: String?

    @Option(name: .long, help: ArgumentHelp("Recompute only this stage; reuse cached results for the others (never-cached stages such as annotate run anyway: --only annotate redraws without detecting).", valueName: "STAGE"))
    var only: String?

    @Flag(name: .long, help: "Finish an interrupted run into the same DIR (or continue into another run's DIR, with its stage cache): completed entries are reused, not redone.")
    var resume = false

    @Flag(name: .long, help: "Start over in a DIR that holds another run's results: remove manifest.csv, run.json, images/, faces/, outputs.tar and .cache/ first (nothing else).")
    var overwrite = false

    @Flag(name: .long, help: "Write images and JSON into DIR/outputs.tar instead of DIR/images and DIR/faces.")
    var outputTar = false

    @Option(name: .long, help: ArgumentHelp("Process only archives j with j mod N = I (0-based), e.g. 0/4.", valueName: "I/N"))
    var shard: String?

    @Option(name: .long, help: ArgumentHelp("Folder with the verified .tflite models (searched first; then $FACEPIPE_MODELS, the installed share folder, the checkout, ~/.cache/facepipe/models).", valueName: "DIR"))
    var models: String?

    @Flag(name: .long, help: "No progress output (errors and the summary line still go to stderr).")
    var quiet = false

    func validate() throws {
        guard !archives.isEmpty else { throw ValidationError("give at least one archive") }
        guard (1...256).contains(workers) else { throw ValidationError("--workers must be between 1 and 256") }
        guard from == nil || only == nil else { throw ValidationError("--from and --only cannot be combined") }
        guard !(resume && outputTar) else { throw ValidationError("--resume cannot continue an output tar") }
        guard !(resume && overwrite) else { throw ValidationError("--resume and --overwrite cannot be combined") }
        if let shard { _ = try Self.parseShard(shard) }
    }

    static func parseShard(_ text: String) throws -> (index: Int, count: Int) {
        let parts = text.split(separator: "/")
        guard parts.count == 2, let i = Int(parts[0]), let n = Int(parts[1]), n >= 1, (0..<n).contains(i) else {
            throw ValidationError("--shard must be I/N with 0 ≤ I < N, got \(text)")
        }
        return (i, n)
    }

    func run() async throws {
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = .warning
            return handler
        }
        let pipeline: Pipeline
        let plan: CompiledPipeline
        do {
            pipeline = try PipelineRegistry.named(self.pipeline)
        } catch {
            throw UsageFailure(message: error.description)
        }
        plan = try ModelSearchPath.forThisProcess(option: models).compile(pipeline)
        var inputs = archives.map { RunInput.archive(path: $0) }
        if let shard {
            let (index, count) = try Self.parseShard(shard)
            inputs = inputs.enumerated().filter { $0.offset % count == index }.map(\.element)
        }
        let recompute: RecomputePolicy = from.map(RecomputePolicy.from) ?? only.map(RecomputePolicy.only) ?? .useCache
        let configuration = RunConfiguration(outputDirectory: URL(fileURLWithPath: out), workers: workers,
                                             recompute: recompute, resume: resume,
                                             outputTar: outputTar, overwrite: overwrite)
        let interrupt = InterruptSignal()
        let progress = ProgressReporter(quiet: quiet)
        let summary: RunSummary
        do {
            summary = try await PipelineRunner.run(plan, inputs: inputs, configuration: configuration,
                                                   toolVersion: FacepipeVersion.string,
                                                   hooks: RunHooks(shouldStop: { interrupt.requested },
                                                                   progress: { progress.update($0) }))
        } catch {
            progress.finish()
            throw UsageFailure(message: error.description)
        }
        progress.finish()
        FileHandle.standardError.write(Data("facepipe: \(pipeline.name): \(summary.line)\n".utf8))
        if !summary.skipped.isEmpty, !quiet {
            for skipped in summary.skipped.prefix(20) {
                FileHandle.standardError.write(Data("  skipped \(skipped.archive)#\(skipped.index) \(skipped.name): \(skipped.reason)\n".utf8))
            }
            if summary.skipped.count > 20 {
                FileHandle.standardError.write(Data("  … \(summary.skipped.count - 20) more in run.json\n".utf8))
            }
        }
        if summary.interrupted { throw ExitCode(130) }
        if summary.exitStatus != .ok { throw ExitCode(summary.exitStatus.rawValue) }
    }
}
