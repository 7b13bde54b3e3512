import Foundation
import Pipeline
import RunFolders

/// A task's share of a run split over cluster tasks: its block of the sorted
/// inputs (``ShardAssignment``) into `OUT/shards/<i>-of-<n>/`, resumed when
/// the task runs again (a requeued Slurm task, a replaced Kubernetes pod),
/// and `_SUCCESS` (``ShardCompletion``) written last. `facepipe merge OUT`
/// then makes OUT what one run over the sorted inputs writes.
package enum ShardedRun {
    /// What happened to the shard.
    package enum Outcome: Sendable {
        /// The shard ran (or resumed) to its end; `_SUCCESS` is written.
        case finished(RunSummary, inputs: [String])
        /// `_SUCCESS` was already there for this pipeline and input list: nothing to do.
        case alreadyComplete
        /// Stopped by a signal: no `_SUCCESS`; running the task again resumes it.
        case interrupted(RunSummary)
    }

    /// The shard's folder under `out`.
    package static func folder(_ shard: Shard, in out: URL) -> URL {
        out.appendingPathComponent(OutputLayout.shardFolder(shard))
    }

    /// The assignment every task of a run over `arguments` computes.
    package static func assignment(_ arguments: [String], count: Int) throws(ShardError) -> ShardAssignment {
        var sizes: [Int64] = []
        for argument in arguments {
            guard argument != "-", let size = ShardAssignment.size(ofInput: argument) else {
                throw .invalid("\(argument): a sharded run needs files or folders every task can read (a stream cannot be split across tasks)")
            }
            sizes.append(size)
        }
        return ShardAssignment(paths: arguments, sizes: sizes, count: count)
    }

    /// Runs `shard`'s block of `arguments` into `folder(shard, in: out)`.
    /// `configuration.outputDirectory` is replaced by the shard's folder;
    /// `resume` is implied (a rerun continues the shard, never duplicates rows)
    /// unless the configuration writes an output tar or overwrites.
    package static func run(_ plan: CompiledPipeline, arguments: [String], shard: Shard, out: URL,
                           configuration: RunConfiguration, toolVersion: String,
                           hooks: RunHooks = RunHooks()) async throws -> Outcome {
        guard !configuration.redactedShards else {
            throw ShardError.invalid("--redacted-shards cannot be combined with --shard (a task's redacted shards would be resumed entry by entry); run anonymize with --redacted-shards on each task's own inputs instead")
        }
        let assignment = try assignment(arguments, count: shard.count)
        let folder = folder(shard, in: out)
        let models = plan.faceModels.models.map { "\($0.fileName) \($0.sha256)" }
        if let done = try? ShardedRunFolder(out).completion(of: shard), done.pipelineFingerprint == plan.fingerprint,
           done.inputs == assignment.paths, done.models == models, done.shard == shard.index, done.shardCount == shard.count {
            return .alreadyComplete
        }
        let mine = assignment.paths(of: shard.index)
        let inputs = try mine.map { argument throws(RunInputError) in try RunInput.fromArgument(argument) }
        var configuration = configuration
        configuration.outputDirectory = folder
        if !configuration.outputTar && !configuration.overwrite { configuration.resume = true }
        let summary = try await PipelineRunner.run(plan, inputs: inputs, configuration: configuration,
                                                   toolVersion: toolVersion, hooks: hooks)
        if summary.interrupted { return .interrupted(summary) }
        // Each read one piece or row at a time: the same memory for a shard of any size.
        let directory = try OutputDirectory(path: folder.path)
        func seal(_ name: String) throws -> ShardCompletion.FileSeal {
            guard let digest = directory.digest(of: name) else {
                throw OutputDirectory.Failure(path: folder.path + "/" + name, reason: "missing or unreadable")
            }
            return ShardCompletion.FileSeal(bytes: digest.bytes, sha256: digest.sha256)
        }
        let manifest = try seal(OutputLayout.manifestName)
        let skipped = try seal(OutputLayout.skippedName)
        let outputList = try ShardFileList.write(in: directory)
        let completion = ShardCompletion(
            shard: shard.index, shardCount: shard.count, pipeline: plan.name, pipelineFingerprint: plan.fingerprint,
            resultsVersion: CompiledPipeline.resultsVersion, models: models,
            inputs: assignment.paths, inputSizes: assignment.sizes, assigned: Array(assignment.blocks[shard.index]),
            manifestBytes: manifest.bytes, manifestSHA256: manifest.sha256, commandLine: CommandLine.arguments,
            outputList: outputList, skippedList: skipped)
        try completion.write(into: folder)
        return .finished(summary, inputs: mine)
    }
}
