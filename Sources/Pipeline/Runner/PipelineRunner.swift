import ArchiveIO
import Foundation
import ImageCore
import Logging

/// Executes a compiled pipeline over the entries of one or more inputs.
///
/// A producer (this task) reads entries sequentially; a task group processes
/// them with at most `workers` in flight. ``RunSchedule`` decides when the
/// producer may start another entry and releases finished outcomes in input
/// order to an ``EntryWriter``, so outputs do not depend on scheduling.
/// Memory is bounded by `workers` entries in flight plus at most
/// `reorderWindow` finished ones waiting.
public enum PipelineRunner {
    static let logger = Logger(label: "facepipe.pipeline")

    /// Runs `plan` over `inputs` into the output folder. Entry failures
    /// become manifest rows; only setup problems (output folder,
    /// configuration) throw.
    public static func run(_ plan: CompiledPipeline, inputs: [RunInput], configuration: RunConfiguration,
                           toolVersion: String, hooks: RunHooks = RunHooks()) async throws(PipelineError) -> RunSummary {
        try configuration.validate()
        let steps = try plan.steps(for: configuration.recompute)
        let layout = try OutputLayout.prepare(configuration.outputDirectory)
        try OutputFolderRule.apply(to: layout, plan: plan, inputs: inputs,
                                   overwrite: configuration.overwrite, resume: configuration.resume)
        let started = Date()
        let completions: CompletionStore, cache: StageCache
        let writer: OrderedWriter
        do {
            let root = try OutputDirectory(path: layout.root.path)
            completions = try CompletionStore(root: root, keep: configuration.resume)
            cache = try StageCache(root: root)
            let sink: any OutputSink = configuration.outputTar
                ? try TarSink(path: layout.outputTar.path) : try FolderSink(root: layout.root)
            writer = try OrderedWriter(sink: sink, manifestURL: layout.manifest,
                                       completions: completions, pipelineFingerprint: plan.fingerprint,
                                       outputSignature: configuration.outputTar ? "tar" : "folder",
                                       orderedPasses: steps.compactMap { $0.orderedPass?() })
        } catch {
            throw .outputUnusable(path: layout.root.path, reason: "cannot create outputs: \(error)")
        }
        let scheduled = await schedule(plan, steps: steps, inputs: inputs, writer: writer,
                                       cache: cache,
                                       configuration: configuration, hooks: hooks)
        if let writeFailure = scheduled.writeFailure {
            throw .outputUnusable(path: layout.root.path, reason: writeFailure)
        }
        do {
            try writer.finish()
        } catch {
            throw .outputUnusable(path: layout.root.path, reason: "cannot flush outputs: \(error)")
        }
        var summary = writer.summary
        summary.damagedRecords = cache.damaged + completions.damaged
        summary.redoneEntries = completions.outputsChanged
        let provenance = RunProvenance(toolVersion: toolVersion, plan: plan, steps: steps, inputs: scheduled.inputs,
                                       configuration: configuration, summary: summary,
                                       started: started, finished: Date())
        do {
            try provenance.write(to: layout.runJSON)
        } catch {
            throw .outputUnusable(path: layout.root.path, reason: "cannot write run.json: \(error)")
        }
        return summary
    }

    /// Runs `plan` over `inputs` and writes one JSON line per entry to
    /// `output` (`facepipe detect`): no output folder, no cache.
    public static func runJSONLines(_ plan: CompiledPipeline, inputs: [RunInput], output: FileHandle,
                                    workers: Int, hooks: RunHooks = RunHooks()) async throws(PipelineError) -> RunSummary {
        let configuration = RunConfiguration(outputDirectory: URL(fileURLWithPath: "/"), workers: workers, recompute: .everything)
        try configuration.validate()
        let steps = try plan.steps(for: .everything)
        let writer = JSONLinesWriter(output: output)
        if let writeFailure = await schedule(plan, steps: steps, inputs: inputs, writer: writer, cache: nil,
                                             configuration: configuration, hooks: hooks).writeFailure {
            throw .outputUnusable(path: "standard output", reason: writeFailure)
        }
        return writer.summary
    }

    /// The producer and the workers: reads every input in order, runs the
    /// entries on at most `workers` tasks, hands outcomes to `writer` in
    /// order. Returns the first write failure (the run stops there), or nil,
    /// and each input's digest as its source took it while reading it.
    static func schedule(_ plan: CompiledPipeline, steps: [CompiledPipeline.Step], inputs: [RunInput],
                         writer: some EntryWriter, cache: StageCache?, configuration: RunConfiguration,
                         hooks: RunHooks) async -> (writeFailure: String?, inputs: [RunProvenance.InputInfo]) {
        let pool = ContextPool(workers: configuration.workers,
                               shared: SharedResources(models: plan.faceModels, faceEngineFactory: configuration.faceEngine))
        var writeFailure: String?
        var described = inputs.map { RunProvenance.InputInfo(name: $0.name, path: $0.path, error: "not read: the run stopped before it") }
        await withTaskGroup(of: SequencedOutcome.self) { group in
            var schedule = RunSchedule<SequencedOutcome>(workers: configuration.workers, window: configuration.reorderWindow)
            var progress = RunProgress(done: 0, total: nil, failed: 0, megapixels: 0)

            func write(_ ready: [SequencedOutcome]) {
                for outcome in ready where writeFailure == nil {
                    do {
                        try writer.write(outcome)
                    } catch {
                        writeFailure = "writing outputs for \(outcome.archiveName)/\(outcome.entryName): \(error)"
                    }
                    progress.done += 1
                    progress.failed = writer.summary.failedEntries + writer.summary.failedArchives
                    progress.megapixels = writer.summary.megapixels
                    hooks.progress(progress)
                }
            }
            func make(_ outcome: (Int) -> SequencedOutcome) {
                let sequence = schedule.reserve()
                write(schedule.made(outcome(sequence), at: sequence))
            }
            func receiveOne() async {
                guard let outcome = await group.next() else { return }
                write(schedule.finished(outcome, at: outcome.sequence))
            }

            inputs: for (archiveNumber, input) in inputs.enumerated() {
                func archiveFailure(_ reason: String) -> (Int) -> SequencedOutcome {
                    { SequencedOutcome(sequence: $0, archiveNumber: archiveNumber, archiveName: input.name,
                                       entryName: "", rawName: [], index: nil, outcome: .archiveFailed(reason: reason)) }
                }
                var source: any EntrySource
                do {
                    source = try input.open()
                } catch {
                    described[archiveNumber].error = "cannot open: \(error)"
                    make(archiveFailure("cannot open archive: \(error)"))
                    continue
                }
                func describeSource() {
                    do {
                        let digest = try source.digest()
                        described[archiveNumber] = .init(name: input.name, path: input.path, sha256: digest?.sha256,
                                                         bytes: digest?.bytes, error: nil)
                    } catch {
                        described[archiveNumber].error = "\(error)"
                    }
                }
                while true {
                    if hooks.shouldStop() || writeFailure != nil {
                        described[archiveNumber].error = "not read to the end: the run stopped"
                        writer.markInterrupted()
                        break inputs
                    }
                    let item: SourceItem?
                    do {
                        item = try source.next()
                    } catch {
                        describeSource()
                        make(archiveFailure("archive unreadable, later entries lost: \(error)"))
                        continue inputs
                    }
                    guard let item else {
                        describeSource()
                        break
                    }
                    guard case .entry(let entry) = item else {
                        if case let .skipped(index, name, reason) = item {
                            writer.addSkipped(.init(archive: input.name, index: index, name: name, reason: reason))
                        }
                        continue
                    }
                    while !schedule.canStart { await receiveOne() }
                    let archiveName = input.name
                    // Hashed here only when a completion record may be reused;
                    // otherwise on the worker, beside the other workers.
                    let knownHash = configuration.resume ? sha256Hex(entry.data) : nil
                    if let knownHash,
                       let done = writer.reusableCompletion(archive: archiveNumber, archiveName: archiveName, entryName: entry.name,
                                                            index: entry.index, contentHash: knownHash) {
                        make { SequencedOutcome(sequence: $0, archiveNumber: archiveNumber, archiveName: archiveName,
                                                entryName: entry.name, rawName: entry.rawName, index: entry.index,
                                                outcome: .resumed(done)) }
                        continue
                    }
                    let position = schedule.start()
                    group.addTask {
                        let outcome = process(entry, contentHash: knownHash, archiveName: archiveName,
                                              steps: steps, cache: cache, pool: pool)
                        return SequencedOutcome(sequence: position, archiveNumber: archiveNumber, archiveName: archiveName,
                                                entryName: entry.name, rawName: entry.rawName, index: entry.index,
                                                outcome: outcome)
                    }
                }
            }
            if !writer.summary.interrupted { progress.total = schedule.produced }
            while schedule.inFlight > 0 { await receiveOne() }
        }
        return (writeFailure, described)
    }

    /// The per-entry work, on a worker: hash (unless the producer did), run
    /// the stages, catch failures.
    static func process(_ entry: ArchiveEntry, contentHash knownHash: String?, archiveName: String,
                        steps: [CompiledPipeline.Step], cache: StageCache?, pool: ContextPool) -> EntryOutcome {
        let context = pool.checkOut()
        defer { pool.checkIn(context) }
        let contentHash = knownHash ?? sha256Hex(entry.data)
        return StageExecutor(steps: steps, cache: cache, context: context)
            .execute(entry, archiveName: archiveName, contentHash: contentHash)
    }
}
