import ArchiveIO
import Foundation
import ImageCore
import Pipeline
import RunFolders

/// Executes a compiled pipeline over the entries of one or more inputs.
///
/// A producer (this task) reads entries sequentially; a task group processes
/// them with at most `workers` in flight. `RunSchedule` decides when the
/// producer may start another entry and releases finished outcomes in input
/// order to an `EntryWriter`'s ordered step (ordered passes, output names),
/// so outputs do not depend on scheduling; each position's encode step then
/// runs in the same task group (at most `workers` at once), and a second
/// `RunSchedule` releases the encoded bytes in input order for the writer to
/// place. Memory is bounded by `workers` entries in flight plus at most
/// `reorderWindow` finished ones waiting, holding at most about
/// `reorderBytes` of outputs, and as much again between the ordered step and
/// placement; decoded video frames from the producer to the ordered step
/// hold at most `videoFrameBytes` (one frame always fits).
public enum PipelineRunner {
    /// Runs `plan` over `inputs` into the output folder. Entry failures
    /// become manifest rows; only setup problems (output folder,
    /// configuration, another run holding the folder's lock) throw. A write
    /// failure mid-run (disk full, an unwritable path) stops the run: what
    /// was written stays consistent and the summary carries the failure
    /// (``RunSummary/writeFailure``, exit status 3).
    public static func run(_ plan: CompiledPipeline, inputs: [RunInput], configuration: RunConfiguration,
                           toolVersion: String, hooks: RunHooks = RunHooks()) async throws(PipelineError) -> RunSummary {
        try configuration.validate()
        let inputs = RunInput.withUniqueNames(inputs)
        let steps = try plan.steps(for: configuration.recompute)
        let shardInputs = configuration.redactedShards ? try RedactedTars.check(plan, inputs: inputs) : nil
        let layout = try OutputLayout.prepare(configuration.outputDirectory)
        let directory: OutputDirectory
        do {
            directory = try OutputDirectory(path: layout.root.path)
        } catch {
            throw .outputUnusable(path: layout.root.path, reason: error.reason)
        }
        let lock = try OutputLock(directory, commandLine: CommandLine.arguments)
        defer { withExtendedLifetime(lock) {} }
        try OutputFolderRule.apply(to: layout, directory: directory, plan: plan, inputs: inputs,
                                   overwrite: configuration.overwrite, resume: configuration.resume)
        let started = Date()
        let completions: CompletionStore, cache: StageCache
        let writer: OrderedWriter
        do {
            // Temporary files a killed run left are not the outputs of any entry.
            for name in OutputLayout.outputFolders + [OutputLayout.redactedFolder, OutputLayout.cacheFolder] {
                try directory.removeTemporaryFiles(below: name)
            }
            // With an output tar, records name members of finished tars (`TarMember`), which `TarSink` keeps.
            completions = try CompletionStore(root: directory, keep: configuration.resume)
            cache = try StageCache(root: directory)
            let sink: any OutputSink = configuration.outputTar
                ? try TarSink(directory: directory, shardBytes: configuration.outputTarBytes, keepIdentical: configuration.resume)
                : FolderSink(directory: directory)
            let shards = try shardInputs.map { try RedactedTars(directory: directory, inputs: $0) }
            let passes = plan.orderedPasses(steps)
            writer = try OrderedWriter(sink: sink, manifest: try directory.createFile(OutputLayout.manifestName),
                                       skippedFile: try SkippedFile(in: directory),
                                       completions: completions, pipelineFingerprint: plan.fingerprint,
                                       outputSignature: (configuration.outputTar ? "tar" : "folder") + (shards == nil ? "" : "+redacted-shards"),
                                       orderedPasses: passes.stages, videoFramesPass: passes.videoFrames, shards: shards,
                                       videoDirectory: configuration.outputTar || shards != nil || configuration.videoFramesAsImages ? nil : directory,
                                       videoCover: plan.videoCover.map { ($0, plan.videoTrackingReach) },
                                       claimedNames: try ClaimedNames(in: directory),
                                       imageFileInputs: Set(inputs.indices.filter { inputs[$0].isImageFile }))
        } catch {
            throw .outputUnusable(path: layout.root.path, reason: "cannot create outputs: \(error)")
        }
        let scheduled = await schedule(plan, steps: steps, inputs: inputs, writer: writer,
                                       cache: cache,
                                       configuration: configuration, hooks: hooks)
        var failure = scheduled.writeFailure
        if failure != nil {
            if let lost = writer.abandon() { failure! += "; " + lost }
        } else {
            do {
                try writer.finish()
            } catch {
                failure = "cannot flush outputs: \(error)"
                if let lost = writer.abandon() { failure! += "; " + lost }
            }
        }
        var summary = writer.summary
        if let failure {
            summary.writeFailure = failure
            summary.interrupted = true
        }
        summary.damagedRecords = cache.damaged + completions.damaged
        summary.redoneEntries = completions.outputsChanged
        summary.notes += completions.notes
        let record = RunRecord(toolVersion: toolVersion, plan: plan, steps: steps, inputs: scheduled.inputs,
                               configuration: configuration, summary: summary,
                               started: started, finished: Date())
        do {
            try record.write(to: directory)
        } catch {
            // With outputs already failing, run.json may fail for the same reason: say both.
            guard let failure else { throw .outputUnusable(path: layout.root.path, reason: "cannot write run.json: \(error)") }
            summary.writeFailure = failure + "; run.json not written either: \(error)"
        }
        do {
            try RunReport.write(directory: layout.root)
        } catch {
            // The manifest and run.json are written: a failed page is a write failure (exit 3), said in one line.
            summary.writeFailure = (summary.writeFailure.map { $0 + "; " } ?? "") + "\(OutputLayout.reportName) not written: \(error.description)"
        }
        return summary
    }

    /// Runs `plan` over `inputs` and writes one JSON line per entry to
    /// `output` (`facepipe detect`): no output folder, no cache.
    public static func runJSONLines(_ plan: CompiledPipeline, inputs: [RunInput], output: FileHandle,
                                    workers: Int, video: VideoReading = .standard,
                                    hooks: RunHooks = RunHooks()) async throws(PipelineError) -> RunSummary {
        let configuration = RunConfiguration(outputDirectory: URL(fileURLWithPath: "/"), workers: workers, recompute: .everything,
                                             video: video)
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
    /// entries on at most `workers` tasks, hands outcomes to `writer`'s
    /// ordered step in order, encodes each position on a task of its own and
    /// has `writer` place the bytes in order. Returns the first write failure (the run stops there), or nil,
    /// and each input's digest as its source took it while reading it.
    static func schedule<Writer: EntryWriter>(_ plan: CompiledPipeline, steps: [CompiledPipeline.Step], inputs: [RunInput],
                                              writer: Writer, cache: StageCache?, configuration: RunConfiguration,
                                              hooks: RunHooks) async -> (writeFailure: String?, inputs: [RunRecord.InputInfo]) {
        let pool = ContextPool(workers: configuration.workers,
                               shared: SharedResources(models: plan.faceModels, faceEngineFactory: configuration.faceEngine,
                                                       imagesInEntryFormat: configuration.routing.imagesInEntryFormat))
        var writeFailure: String?
        var described = inputs.map { RunRecord.InputInfo(name: $0.name, path: $0.path, error: "not read: the run stopped before it") }
        await withTaskGroup(of: RunTaskResult<Writer.Rendering.Encoded>.self) { group in
            var schedule = RunSchedule<SequencedOutcome>(workers: configuration.workers, window: configuration.reorderWindow,
                                                         byteBudget: configuration.reorderBytes, bytes: \.heldBytes,
                                                         frameBudget: configuration.videoFrameBytes)
            // After the ordered step: encode steps on at most `workers` tasks, placed in sequence order
            // (the same numbers: every position takes the ordered step, in order).
            var encodes = RunSchedule<PendingPlacement<Writer.Rendering.Encoded>>(
                workers: configuration.workers, window: configuration.reorderWindow,
                byteBudget: configuration.reorderBytes, bytes: \.heldBytes)
            // Encode tasks started and finished so far (a stream's reads wait for those started).
            var encodesStarted = 0, encodesFinished = 0
            // Positions past the ordered step waiting for an encode task, in order.
            var ordered: [(name: String, notice: RunNotice?, rendering: Result<Writer.Rendering, any Error>)] = []
            let shares = InputShares.of(sizes: inputs.map(\.byteSize))
            var progress = RunProgress(inputCount: inputs.count, currentShare: shares.first ?? 1)

            /// Positions past the ordered step and not yet placed: at most a window's worth.
            func backlogFull() -> Bool { ordered.count + encodes.pending >= configuration.reorderWindow }
            func inFlight() -> Bool { schedule.inFlight > 0 || encodes.inFlight > 0 }

            func place(_ ready: [PendingPlacement<Writer.Rendering.Encoded>]) {
                for placement in ready where writeFailure == nil {
                    if let notice = placement.notice { hooks.notice(notice) }
                    do {
                        try writer.place(placement.result.get())
                    } catch {
                        writeFailure = "\(error) (writing the outputs of \(placement.name))"
                    }
                    progress.done += 1
                    progress.read = schedule.produced
                    progress.failed = writer.summary.failedEntries + writer.summary.failedArchives
                    progress.megapixels = writer.summary.megapixels
                    hooks.progress(progress)
                }
            }
            /// Hands the positions past the ordered step to encode tasks, in order, while there is room;
            /// one with nothing to encode (or whose ordered step failed) is placed as its turn comes.
            func encodeOrdered() {
                if writeFailure != nil { ordered.removeAll() }
                while let next = ordered.first {
                    if case .success(let rendering) = next.rendering, rendering.encodes {
                        guard encodes.canStart else { return }
                        ordered.removeFirst()
                        let position = encodes.start()
                        encodesStarted += 1
                        group.addTask {
                            .encoded(PendingPlacement(name: next.name, notice: next.notice, result: Result { try rendering.encoded() }),
                                     at: position)
                        }
                    } else {
                        ordered.removeFirst()
                        let position = encodes.reserve()
                        let result = next.rendering.flatMap { rendering in Result { try rendering.encoded() } }
                        place(encodes.made(PendingPlacement(name: next.name, notice: next.notice, result: result), at: position))
                    }
                }
            }
            /// The ordered step, in sequence order, for outcomes the schedule released.
            func order(_ released: [SequencedOutcome]) {
                for outcome in released where writeFailure == nil {
                    var notice: RunNotice?
                    if case .failed(let reason, _, _) = outcome.outcome {
                        notice = .entryFailed(input: outcome.archiveName, entry: outcome.entryName, reason: reason)
                    }
                    ordered.append((EntryDisplayName.of(archive: outcome.archiveName, entry: outcome.entryName), notice,
                                    Result { try writer.order(outcome) }))
                }
                encodeOrdered()
            }
            func skip(_ skipped: RunSummary.SkippedRecord) {
                guard writeFailure == nil else { return }
                do {
                    try writer.addSkipped(skipped)
                } catch {
                    writeFailure = "\(error) (listing the skipped \(EntryDisplayName.of(archive: skipped.archive, entry: skipped.name)))"
                }
                hooks.notice(.entrySkipped(skipped))
            }
            func make(_ outcome: (Int) -> SequencedOutcome) {
                let sequence = schedule.reserve()
                order(schedule.made(outcome(sequence), at: sequence))
            }
            func receiveOne() async {
                switch await group.next() {
                case .processed(let outcome):
                    order(schedule.finished(outcome, at: outcome.sequence))
                case .encoded(let placement, let position):
                    encodesFinished += 1
                    place(encodes.finished(placement, at: position))
                    encodeOrdered()
                case nil:
                    return
                }
            }

            // `--redacted-shards`: the last video left out (input, index), so it is listed once.
            var leftOutVideo: [Int] = []
            inputs: for (archiveNumber, input) in inputs.enumerated() {
                if archiveNumber > 0 { progress.sharesRead += shares[archiveNumber - 1] }
                (progress.input, progress.currentShare) = (archiveNumber, shares[archiveNumber])
                func archiveFailure(_ reason: String) -> (Int) -> SequencedOutcome {
                    hooks.notice(.inputFailed(input: input.name, reason: reason))
                    return { SequencedOutcome(sequence: $0, archiveNumber: archiveNumber, archiveName: input.name,
                                       entry: nil, index: nil, outcome: .archiveFailed(reason: reason)) }
                }
                var source: any EntrySource
                do {
                    source = try input.open(configuration.video)
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
                    if input.isStream {
                        // The next read may wait for the stream's writer: first place the entries whose
                        // encode steps have started, so a stalled stream holds no finished entry back
                        // (with one worker, entry k is written once entry k + 1 is read).
                        let started = encodesStarted
                        while encodesFinished < started { await receiveOne() }
                    }
                    let item: SourceItem?
                    do {
                        item = try source.next()
                    } catch {
                        describeSource()
                        make(archiveFailure("archive unreadable, later entries lost: \(error)"))
                        continue inputs
                    }
                    progress.position = source.position
                    progress.read = schedule.produced
                    hooks.progress(progress)
                    guard let item else {
                        describeSource()
                        if configuration.routing.marksInputEnds {
                            make { SequencedOutcome(sequence: $0, archiveNumber: archiveNumber, archiveName: input.name,
                                                    entry: nil, index: nil, outcome: .inputEnded) }
                        }
                        break
                    }
                    let work: WorkEntry
                    switch item {
                    case .entry(let entry):
                        let name = EntryName(member: entry.rawName, isWholeInput: input.isOneFile)
                        switch configuration.routing.route(entry.name, entry.data) {
                        case .process:
                            work = .still(entry, name: name)
                        case .copy:
                            // Copied members wait in order too: keep the window's bound on memory.
                            while inFlight() && (schedule.pending >= schedule.window || backlogFull()) { await receiveOne() }
                            make { SequencedOutcome(sequence: $0, archiveNumber: archiveNumber, archiveName: input.name,
                                                    entry: name, index: entry.index, outcome: .copied(entry.data)) }
                            continue
                        case .leaveOut(let reason):
                            skip(RunSummary.SkippedRecord(archive: input.name, index: entry.index, name: entry.name, reason: reason))
                            continue
                        }
                    case .frame(let frame):
                        if configuration.redactedShards {
                            // A redacted shard holds pictures in place of pictures: a video is left out, said once.
                            if leftOutVideo != [archiveNumber, frame.index] {
                                leftOutVideo = [archiveNumber, frame.index]
                                skip(RunSummary.SkippedRecord(archive: input.name, index: frame.index,
                                                              name: frame.entryName.memberText,
                                                              reason: RedactedTarMember.leftOutPrefix + "a video (--redacted-shards writes pictures only)"))
                            }
                            continue
                        }
                        work = .frame(frame)
                    case let .skipped(index, name, reason):
                        skip(RunSummary.SkippedRecord(archive: input.name, index: index, name: name, reason: reason))
                        continue
                    case let .unreadable(index, _, rawName, reason):
                        make { SequencedOutcome(sequence: $0, archiveNumber: archiveNumber, archiveName: input.name,
                                                entry: EntryName(member: rawName, isWholeInput: input.isOneFile), index: index,
                                                outcome: .failed(reason: "read: \(reason)", contentHash: "", partial: nil)) }
                        continue
                    }
                    while !schedule.canStart(holding: work.frameBytes) || backlogFull() { await receiveOne() }
                    let archiveName = input.name
                    // Hashed here only when a completion record may be reused;
                    // otherwise on the worker, beside the other workers.
                    let knownHash = work.knownHash(resuming: configuration.resume)
                    if let knownHash,
                       let done = writer.reusableCompletion(archive: archiveNumber, archiveName: archiveName, entryName: work.name.text,
                                                            index: work.index, contentHash: knownHash, frame: work.frame) {
                        make { work.sequenced($0, archiveNumber: archiveNumber, archiveName: archiveName, outcome: .resumed(done)) }
                        continue
                    }
                    let position = schedule.start(holding: work.frameBytes)
                    group.addTask {
                        let outcome = work.process(contentHash: knownHash, archiveName: archiveName,
                                                   steps: steps, cache: cache, pool: pool)
                        return .processed(work.sequenced(position, archiveNumber: archiveNumber, archiveName: archiveName, outcome: outcome))
                    }
                }
            }
            if !writer.summary.interrupted { progress.total = schedule.produced }
            while inFlight() { await receiveOne() }
        }
        return (writeFailure, described)
    }
}
