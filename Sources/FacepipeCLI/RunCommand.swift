import ArgumentParser
import Foundation
import Pipeline
import PipelineRunning
import Pipelines
import RunFolders

/// `facepipe run [--pipeline NAME] INPUT... --out DIR` (`RunArguments`).
struct RunCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run a pipeline over photo archives, folders or images: annotated PNGs, per-image JSON, manifest.csv, run.json, report.html.",
        discussion: """
        Runs \(RunArguments.defaultPipeline), the default pipeline, unless --pipeline NAME picks another \
        (`facepipe pipelines` lists them). The older form `facepipe run NAME INPUT…` \
        still works when NAME is a pipeline and no file or folder here is called NAME; \
        if one is, the run stops and asks which was meant (exit 2). A pipeline in a Swift \
        file (`facepipe run --pipeline FILE.swift INPUT…`) is compiled with the swiftc on \
        PATH against facepipe's modules, cached, and run (docs/PIPELINES.md). A Swift file \
        is compiled only when it follows --pipeline: a .swift file among the INPUTs (such \
        as one a shell glob like dl/* reached) is refused before anything runs (exit 2).

        Each INPUT is recognised by what it is, never by its name: - (a tar stream on \
        standard input), a folder (every JPEG and PNG below it, sorted by path; other \
        files and symbolic links are listed as skipped), an image file (JPEG or PNG), an \
        archive file (.tar, .tar.gz/.bz2/.xz/.zst, .zip) or a pipe such as <(tar cf - dir). \
        Every input is read once; an input that cannot be opened stops the run before \
        DIR is created (exit 2).

        A video (MP4, MOV, MKV, WebM, recognised by its first bytes, given as a file, in a \
        folder or in a tar) is a sequence of entries, one per frame, named clip.mp4#000123, \
        with frame and time columns; --every N or --fps F choose frames. faces, anonymize \
        and training-annotations give each face of a video a tracking_id across its frames \
        (docs/VIDEO.md).

        Entries are processed concurrently and written in archive order, so outputs are \
        byte-identical for any --workers. Stage results are cached in DIR/.cache: a rerun \
        reuses them, --from/--only choose what to recompute.

        Exit codes: 0 every entry ok; 1 some entries failed (each has an error row in \
        manifest.csv); 2 usage or setup error, or DIR in use by another run (nothing \
        processed); 3 writing the outputs failed (disk full, unwritable path; entries \
        written so far are kept: rerun with --resume); 130 interrupted by Ctrl-C, 143 by \
        SIGTERM (entries in flight finish, manifest and run.json are written; rerun with \
        --resume).
        """
    )

    @Option(name: .long, help: ArgumentHelp("The pipeline to run (default: \(RunArguments.defaultPipeline); see `facepipe pipelines`), or a pipeline file to compile and run (a NAME ending in .swift; the only way a Swift file is compiled).", valueName: "NAME"))
    var pipeline: String?

    @Argument(help: ArgumentHelp("Archives (.tar, .tar.gz/.bz2/.xz/.zst, .zip), folders, JPEG/PNG files, pipes, or - for a tar on stdin; processed in the order given. A first argument that names a pipeline (and no file or folder here) picks that pipeline. A .swift file here is refused (exit 2): use --pipeline FILE.swift.", valueName: "input"))
    var arguments: [String]

    @Option(name: [.customShort("o"), .long], help: ArgumentHelp("Output folder (created if missing).", valueName: "DIR"))
    var out: String

    @Option(name: .long, help: ArgumentHelp("Recompute this stage and all later ones; reuse cached results before it.", valueName: "STAGE"))
    var from: String?

    @Option(name: .long, help: ArgumentHelp("Recompute only this stage; reuse cached results for the others (never-cached stages such as annotate run anyway: --only annotate redraws without detecting).", valueName: "STAGE"))
    var only: String?

    @Flag(name: .long, help: "Finish an interrupted run into the same DIR (or continue into another run's DIR, with its stage cache): completed entries are reused, not redone.")
    var resume = false

    @Flag(name: .long, help: ArgumentHelp("Start over in a DIR that holds another run's results: remove \(OutputLayout.listed(OutputLayout.facepipeNames)) first (nothing else; links are removed, never followed)."))
    var overwrite = false

    @Flag(name: .long, help: "Write images, JSON and crops into numbered tars, DIR/outputs/000000.tar, 000001.tar, … (a new one when the current one holds --output-tar-size), instead of DIR/images, DIR/faces and DIR/crops; --resume keeps the tars it writes the same.")
    var outputTar = false

    @Option(name: .long, help: ArgumentHelp("With --output-tar: begin the next tar before an entry once the current one holds SIZE (bytes, or K, M, G, T: powers of 1024; default 1G).", valueName: "SIZE"))
    var outputTarSize: String?

    @Flag(name: .long, help: "For each input tar X (.tar, .tar.gz/.bz2/.xz/.zst), write DIR/redacted/X: the same members in the same order under the same names, holding only what facepipe redacted or knows by its content carries no picture. Each image is replaced by its redacted image in its own format (JPEG at write-outputs' quality, PNG as PNG; no metadata); an empty member or UTF-8 text (captions, JSON, CSV, labels) without control characters, long base64/hex runs or long runs of numbers 0-255 is copied byte for byte; every other member (video in any container, audio, arrays, compressed or unknown data) is left out, named in the summary and listed in skipped.csv, unless --copy-unknown. A member that is or looks like a picture (by its content: PPM, QOI, SVG, WebP, TIFF, HEIF…) and cannot be processed is left out, never copied (its error row says so). Needs a pipeline with a redact stage (anonymize); not with --resume or --shard.")
    var redactedShards = false

    @Flag(name: .long, help: "With --redacted-shards: also copy members facepipe does not know to carry no picture (video in containers it does not read, audio, arrays, compressed or archived data, unknown binary) into the shards byte for byte, instead of leaving them out. Pictures and videos facepipe recognises are never copied.")
    var copyUnknown = false

    @Option(name: .long, help: ArgumentHelp("Run one task's share of a run split over cluster tasks, into DIR/shards/I-of-N/ (then `facepipe merge DIR`): I/N (0-based), or auto to read the task index from Slurm job arrays, Kubernetes Indexed Jobs or AWS Batch array jobs. Inputs are sorted by path and split into N contiguous blocks balanced by size; a rerun of the same task resumes its shard.", valueName: "I/N|auto"))
    var shard: String?

    @Option(name: .long, help: ArgumentHelp("The number of tasks for --shard auto when the scheduler does not say (a Kubernetes Indexed Job's completions; also FACEPIPE_SHARD_COUNT).", valueName: "N"))
    var shardCount: Int?

    @Flag(name: .long, help: "No progress bar or lines, no skipped or failed entries as they happen, no rejections at the end (input errors, the summary and the errors grouped by reason still go to stderr).")
    var quiet = false

    @Option(name: .customLong("set"), help: ArgumentHelp(
        "Set a stage option for this run, named as `facepipe describe PIPELINE` prints it (repeatable; applied after the short forms below).",
        valueName: "STAGE.OPTION=VALUE"))
    var settings: [String] = []

    @OptionGroup var detector: DetectorOptions

    @OptionGroup var work: WorkerOptions

    @OptionGroup var frames: FrameOptions

    /// The pipeline and inputs the arguments name, read by `validate()`.
    @ParsedValue var resolved: RunArguments?

    /// `--shard`'s I/N (not `auto`, read from the scheduler in `run()`), read by `validate()`.
    @ParsedValue var fixedShard: Shard?

    /// `--output-tar-size` in bytes, read by `validate()`.
    @ParsedValue var outputTarBytes: Int?

    mutating func validate() throws {
        let inputs: [String]
        do {
            let given = try RunArguments.resolve(arguments, pipelineOption: pipeline)
            (resolved, inputs) = (given, given.inputs)
        } catch { throw ValidationError(error.description) }
        guard !out.isEmpty else { throw ValidationError("--out needs a folder (an empty name would write into the current folder)") }
        guard inputs.filter({ $0 == "-" }).count <= 1 else { throw ValidationError("standard input (-) can be read only once") }
        do {
            try RunConfiguration.validateFlags(workers: work.workerCount, resume: resume, overwrite: overwrite, outputTar: outputTar,
                                               redactedShards: redactedShards, copyUnknown: copyUnknown)
        } catch { throw ValidationError(error.description) }
        if let outputTarSize {
            guard outputTar else { throw ValidationError("--output-tar-size goes with --output-tar") }
            do { outputTarBytes = try OutputTarSize.bytes(outputTarSize) } catch { throw ValidationError(error.description) }
        }
        guard from == nil || only == nil else { throw ValidationError("--from and --only cannot be combined") }
        guard !(shard != nil && redactedShards) else {
            throw ValidationError("--redacted-shards cannot be combined with --shard: run each task on its own inputs with --redacted-shards")
        }
        if let shard, shard != "auto" {
            do { fixedShard = try Shard(parsing: shard) } catch { throw ValidationError(error.description) }
        }
        guard shardCount == nil || shard == "auto" else { throw ValidationError("--shard-count goes with --shard auto") }
    }

    /// The shard this task runs, if any.
    func shardSpec() throws(ShardError) -> Shard? {
        guard shard == "auto" else { return fixedShard }
        return try Shard.fromScheduler(environment: ProcessInfo.processInfo.environment, count: shardCount)
    }

    /// The stage options the short flags and `--set` ask for, in the order they apply.
    func overrides() throws(PipelineError) -> [StageOverride] {
        var overrides = detector.overrides
        for setting in settings { overrides.append(try StageOverride(parsing: setting)) }
        return overrides
    }

    func run() async throws {
        guard let arguments = resolved else { throw UsageFailure(message: "the arguments were not validated") }
        let inputs = arguments.inputs
        let pipeline: Pipeline
        let plan: CompiledPipeline
        do {
            pipeline = try CommandLineContext.registry.named(arguments.pipeline).overriding(overrides())
        } catch {
            throw UsageFailure(message: error.description)
        }
        plan = try ModelSearchPath.forThisProcess(option: work.models).compile(pipeline)
        let shard: Shard?
        do { shard = try shardSpec() } catch { throw UsageFailure(message: error.description) }
        // Every input is checked before the run creates DIR.
        let runInputs: [RunInput]
        do {
            runInputs = try (shard == nil ? inputs : []).map { argument throws(RunInputError) in try RunInput.fromArgument(argument) }
            if shard != nil { for argument in inputs { _ = try RunInput.fromArgument(argument) } }
        } catch {
            throw UsageFailure(message: error.description)
        }
        let recompute: RecomputePolicy = from.map(RecomputePolicy.from) ?? only.map(RecomputePolicy.only) ?? .useCache
        var configuration = RunConfiguration(outputDirectory: URL(fileURLWithPath: out), workers: work.workerCount,
                                             recompute: recompute, resume: resume,
                                             outputTar: outputTar, redactedShards: redactedShards,
                                             copyUnknown: copyUnknown, overwrite: overwrite,
                                             video: frames.reading)
        if let outputTarBytes { configuration.outputTarBytes = outputTarBytes }
        let interrupt = InterruptSignal()
        let progress = ProgressReporter(quiet: quiet)
        let hooks = RunHooks(shouldStop: { interrupt.requested }, progress: { progress.update($0) }, notice: { progress.notice($0) })
        let summary: RunSummary
        do {
            if let shard {
                switch try await ShardedRun.run(plan, arguments: inputs, shard: shard, out: URL(fileURLWithPath: out),
                                                configuration: configuration, toolVersion: FacepipeVersion.string, hooks: hooks) {
                case .alreadyComplete:
                    progress.finish()
                    StandardError.write("facepipe: \(shard) is already complete in \(ShardedRun.folder(shard, in: URL(fileURLWithPath: out)).path)\n")
                    return
                case .finished(let result, let assigned):
                    summary = result
                    StandardError.write("facepipe: \(shard): \(assigned.count) of \(inputs.count) inputs\n")
                case .interrupted(let result):
                    summary = result
                }
            } else {
                summary = try await PipelineRunner.run(plan, inputs: runInputs, configuration: configuration,
                                                       toolVersion: FacepipeVersion.string, hooks: hooks)
            }
        } catch {
            progress.finish()
            throw UsageFailure(message: TerminalText.escaped("\(error)"))
        }
        progress.finish()
        if let writeFailure = summary.writeFailure {
            StandardError.write("facepipe: error: \(TerminalText.escaped("\(writeFailure)"))\n")
        }
        StandardError.write("facepipe: \(pipeline.name): \(summary.line)\n")
        // The problems grouped by reason, as report.html shows them.
        do {
            let folder = shard.map { ShardedRun.folder($0, in: URL(fileURLWithPath: out)).path } ?? out
            let report = try RunReport.read(directory: URL(fileURLWithPath: folder)).report
            let lines = report.groupLines(withRejections: !quiet)
            StandardError.write(lines.map { $0 + "\n" }.joined() + "Report: \((folder as NSString).appendingPathComponent(OutputLayout.reportName))\n")
        } catch {
            StandardError.write("facepipe: \(TerminalText.escaped("\(error)"))\n")
        }
        let status = summary.writeFailure == nil && summary.interrupted ? interrupt.exitStatus : summary.exitStatus
        if status != .ok { throw ExitCode(status.rawValue) }
    }
}
