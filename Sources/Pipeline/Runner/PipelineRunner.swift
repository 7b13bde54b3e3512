import ArchiveIO
import Foundation
import ImageCore
import Logging

/// Executes a compiled pipeline over the entries of one or more archives.
///
/// A producer (this task) reads entries sequentially; a task group processes
/// them with at most `workers` in flight (fill to N, then one in for each one
/// out). Results carry their sequence number and a reorder buffer hands them
/// to the writer in archive order, so outputs do not depend on scheduling.
/// Memory is bounded by `workers` entries in flight plus at most
/// `reorderWindow` finished ones waiting.
public enum PipelineRunner {
    static let logger = Logger(label: "facepipe.pipeline")

    /// Runs `plan` over `inputs`. Entry failures become manifest rows; only
    /// setup problems (output folder, configuration) throw.
    public static func run(_ plan: CompiledPipeline, inputs: [RunInput], configuration: RunConfiguration,
                           toolVersion: String, hooks: RunHooks = RunHooks()) async throws(PipelineError) -> RunSummary {
        try configuration.validate()
        let steps = try plan.steps(for: configuration.recompute)
        let layout = try OutputLayout.prepare(configuration.outputDirectory)
        let started = Date()
        let completions = CompletionStore(directory: layout.completions)
        if !configuration.resume { completions.removeAll() }
        let cache = StageCache(directory: layout.stageCache)
        let outputSignature = configuration.outputTar ? "tar" : "folder"
        let writer: OrderedWriter
        do {
            let sink: any OutputSink = configuration.outputTar
                ? try TarSink(path: layout.outputTar.path) : FolderSink(root: layout.root)
            writer = try OrderedWriter(sink: sink, manifestURL: layout.manifest,
                                       completions: completions, pipelineFingerprint: plan.fingerprint,
                                       outputSignature: outputSignature,
                                       orderedPasses: steps.compactMap { $0.orderedPass?() })
        } catch {
            throw .outputUnusable(path: layout.root.path, reason: "cannot create outputs: \(error)")
        }
        let pool = ContextPool(workers: configuration.workers,
                               shared: SharedResources(modelsDirectory: plan.modelsDirectory,
                                                       faceEngineFactory: configuration.faceEngine))
        let workers = configuration.workers
        let window = configuration.reorderWindow
        // run.json's input digests read every archive once more: do it beside the
        // workers rather than after them, where it would run on one core alone.
        async let describedInputs = RunProvenance.describe(inputs)
        let root = plan.root

        var writeFailure: String?
        await withTaskGroup(of: SequencedOutcome.self) { group in
            var inFlight = 0
            var sequence = 0
            var reorder = ReorderBuffer<SequencedOutcome>()
            var progress = RunProgress(done: 0, total: nil, failed: 0, megapixels: 0)

            func deliver(_ outcome: SequencedOutcome) {
                for ready in reorder.insert(outcome, at: outcome.sequence) where writeFailure == nil {
                    do {
                        try writer.write(ready)
                    } catch {
                        writeFailure = "writing outputs for \(ready.archiveName)/\(ready.entryName): \(error)"
                    }
                    progress.done += 1
                    progress.failed = writer.summary.failedEntries + writer.summary.failedArchives
                    progress.megapixels = writer.summary.megapixels
                    hooks.progress(progress)
                }
            }
            func receiveOne() async {
                guard let outcome = await group.next() else { return }
                inFlight -= 1
                deliver(outcome)
            }

            inputs: for (archiveNumber, input) in inputs.enumerated() {
                var source: any EntrySource
                do {
                    source = try input.open()
                } catch {
                    deliver(SequencedOutcome(sequence: sequence, archiveNumber: archiveNumber, archiveName: input.name,
                                             entryName: "", rawName: [], index: nil,
                                             outcome: .archiveFailed(reason: "cannot open archive: \(error)")))
                    sequence += 1
                    continue
                }
                while true {
                    if hooks.shouldStop() || writeFailure != nil {
                        writer.markInterrupted()
                        break inputs
                    }
                    let item: SourceItem?
                    do {
                        item = try source.next()
                    } catch {
                        deliver(SequencedOutcome(sequence: sequence, archiveNumber: archiveNumber, archiveName: input.name,
                                                 entryName: "", rawName: [], index: nil,
                                                 outcome: .archiveFailed(reason: "archive unreadable, later entries lost: \(error)")))
                        sequence += 1
                        continue inputs
                    }
                    guard let item else { break }
                    guard case .entry(let entry) = item else {
                        if case let .skipped(index, name, reason) = item {
                            writer.addSkipped(.init(archive: input.name, index: index, name: name, reason: reason))
                        }
                        continue
                    }
                    while inFlight >= workers || sequence - reorder.nextSequence >= window {
                        await receiveOne()
                    }
                    let position = sequence
                    sequence += 1
                    if configuration.resume {
                        let contentHash = sha256Hex(entry.data)
                        if let done = writer.reusableCompletion(archive: archiveNumber, index: entry.index, contentHash: contentHash) {
                            deliver(SequencedOutcome(sequence: position, archiveNumber: archiveNumber, archiveName: input.name,
                                                     entryName: entry.name, rawName: entry.rawName, index: entry.index,
                                                     outcome: .resumed(done)))
                            continue
                        }
                    }
                    let archiveName = input.name
                    inFlight += 1
                    group.addTask {
                        let outcome = process(entry, archiveName: archiveName, root: root, steps: steps, cache: cache, pool: pool)
                        return SequencedOutcome(sequence: position, archiveNumber: archiveNumber, archiveName: archiveName,
                                                entryName: entry.name, rawName: entry.rawName, index: entry.index,
                                                outcome: outcome)
                    }
                }
            }
            if !writer.summary.interrupted { progress.total = sequence }
            while inFlight > 0 { await receiveOne() }
        }
        if let writeFailure {
            throw .outputUnusable(path: layout.root.path, reason: writeFailure)
        }
        do {
            try writer.finish()
        } catch {
            throw .outputUnusable(path: layout.root.path, reason: "cannot flush outputs: \(error)")
        }
        let summary = writer.summary
        let provenance = RunProvenance(toolVersion: toolVersion, plan: plan, steps: steps, inputs: await describedInputs,
                                       configuration: configuration, summary: summary,
                                       started: started, finished: Date())
        do {
            try provenance.write(to: layout.runJSON)
        } catch {
            throw .outputUnusable(path: layout.root.path, reason: "cannot write run.json: \(error)")
        }
        return summary
    }

    /// The per-entry work, on a worker: hash, run the stages, catch failures.
    static func process(_ entry: ArchiveEntry, archiveName: String, root: any Stage<Frame<Phase.Encoded>, RenderedEntry>,
                        steps: [CompiledPipeline.Step], cache: StageCache, pool: ContextPool) -> EntryOutcome {
        let context = pool.checkOut()
        defer { pool.checkIn(context) }
        let contentHash = sha256Hex(entry.data)
        let executor = StageExecutor(steps: steps, cache: cache, contentHash: contentHash, context: context)
        let frame = Frame<Phase.Encoded>(image: RGBImage(width: 0, height: 0),
                                         record: EntryRecord(archive: archiveName, entry: entry.name, index: entry.index),
                                         encoded: entry.data)
        do {
            let rendered = try root._execute(frame, executor: executor)
            return .rendered(rendered, contentHash: contentHash, cacheHits: executor.cacheHits)
        } catch {
            return .failed(reason: String(describing: error), contentHash: contentHash, partial: executor.lastRecord)
        }
    }
}
