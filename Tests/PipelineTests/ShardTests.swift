import ArchiveIO
import Foundation
import Pipeline
import PipelineRunning
import RunFolders
import Testing

@Suite struct ShardSchedulerTests {
    @Test(arguments: [
        (["SLURM_ARRAY_TASK_ID": "3", "SLURM_ARRAY_TASK_COUNT": "8"], 3, 8),
        (["SLURM_ARRAY_TASK_ID": "12", "SLURM_ARRAY_TASK_MIN": "10", "SLURM_ARRAY_TASK_MAX": "13"], 2, 4),
        (["SLURM_ARRAY_TASK_ID": "12", "SLURM_ARRAY_TASK_MIN": "10", "SLURM_ARRAY_TASK_COUNT": "4"], 2, 4),
        (["JOB_COMPLETION_INDEX": "0", "FACEPIPE_SHARD_COUNT": "5"], 0, 5),
        (["AWS_BATCH_JOB_ARRAY_INDEX": "9", "AWS_BATCH_JOB_ARRAY_SIZE": "10"], 9, 10),
    ])
    func schedulersGiveTheTaskItsShard(environment: [String: String], index: Int, count: Int) throws {
        #expect(try Shard.fromScheduler(environment: environment) == Shard(index: index, count: count))
    }

    @Test func kubernetesTakesTheCountFromTheOption() throws {
        #expect(try Shard.fromScheduler(environment: ["JOB_COMPLETION_INDEX": "2"], count: 4) == Shard(index: 2, count: 4))
        #expect(throws: ShardError.self) { try Shard.fromScheduler(environment: ["JOB_COMPLETION_INDEX": "2"]) }
        #expect(throws: ShardError.self) { try Shard.fromScheduler(environment: ["JOB_COMPLETION_INDEX": "4"], count: 4) }
    }

    @Test(arguments: [
        [String: String](),
        ["SLURM_ARRAY_TASK_ID": "1"],
        ["SLURM_ARRAY_TASK_ID": "x", "SLURM_ARRAY_TASK_COUNT": "4"],
        ["SLURM_ARRAY_TASK_ID": "4", "SLURM_ARRAY_TASK_COUNT": "4"],
        ["AWS_BATCH_JOB_ARRAY_INDEX": "1"],
    ])
    func missingOrBadVariablesAreErrors(environment: [String: String]) {
        #expect(throws: ShardError.self) { try Shard.fromScheduler(environment: environment) }
    }

    @Test func aCountThatDisagreesWithTheSchedulerIsRefused() {
        #expect(throws: ShardError.self) {
            try Shard.fromScheduler(environment: ["SLURM_ARRAY_TASK_ID": "1", "SLURM_ARRAY_TASK_COUNT": "4"], count: 3)
        }
    }

    @Test(arguments: ["0/1", "3/4"]) func parsesIndexOfCount(text: String) throws {
        let shard = try Shard(parsing: text)
        #expect("\(shard.index)/\(shard.count)" == text)
    }

    @Test(arguments: ["4/4", "-1/4", "1/0", "1", "a/b", "1/2/3"]) func refusesBadShards(text: String) {
        #expect(throws: ShardError.self) { try Shard(parsing: text) }
    }
}

@Suite struct ShardAssignmentTests {
    /// Every input in exactly one shard, blocks contiguous and in order.
    func expectPartition(_ assignment: ShardAssignment, inputs: Int) {
        var next = 0
        for block in assignment.blocks {
            #expect(block.lowerBound == next)
            next = block.upperBound
        }
        #expect(next == inputs)
    }

    @Test(arguments: [1, 2, 3, 7, 16]) func equalSizesSplitEvenly(count: Int) {
        let paths = (0..<16).map { String(format: "shard-%03d.tar", $0) }
        let assignment = ShardAssignment(paths: paths.reversed(), sizes: [Int64](repeating: 100, count: 16), count: count)
        #expect(assignment.paths == paths)
        expectPartition(assignment, inputs: 16)
        let sizes = assignment.blocks.map(\.count)
        #expect(sizes.max()! - sizes.min()! <= 1)
    }

    @Test func sizesBalanceTheBlocks() {
        // One big input and many small ones: the big one has a shard to itself.
        let sizes: [Int64] = [1000] + [Int64](repeating: 100, count: 10)
        let assignment = ShardAssignment(paths: (0..<11).map { "in\(String(format: "%02d", $0))" }, sizes: sizes, count: 2)
        expectPartition(assignment, inputs: 11)
        #expect(assignment.blocks[0] == 0..<1)
        #expect(assignment.blocks[1] == 1..<11)
    }

    @Test func moreShardsThanInputsLeavesSomeEmpty() {
        let assignment = ShardAssignment(paths: ["b", "a"], sizes: [0, 0], count: 5)
        expectPartition(assignment, inputs: 2)
        #expect(assignment.blocks.filter { !$0.isEmpty }.count == 2)
        #expect(assignment.paths == ["a", "b"])
    }

    @Test func theAssignmentIsAFunctionOfTheSetOfInputs() {
        let paths = ["z.tar", "a/b.tar", "a.tar", "é.tar", "B.tar"]
        let sizes: [Int64] = [5, 50, 500, 5000, 7]
        let a = ShardAssignment(paths: paths, sizes: sizes, count: 3)
        let order = [3, 1, 4, 0, 2]
        let b = ShardAssignment(paths: order.map { paths[$0] }, sizes: order.map { sizes[$0] }, count: 3)
        #expect(a == b)
        #expect(a.paths == ["B.tar", "a.tar", "a/b.tar", "z.tar", "é.tar"])  // UTF-8 byte order
    }
}

@Suite struct ShardMergeTests {
    /// Four archives of red-square PPMs (one with a corrupt entry) in `folder`.
    static func archives(in folder: URL) throws -> [String] {
        try (0..<4).map { k in
            let path = folder.appendingPathComponent("part-\(k).tar").path
            let writer = try TarWriter(path: path)
            for case .entry(let entry) in sampleItems(archive: "part-\(k).tar", count: 5 + 3 * k) {
                try writer.add(path: entry.name, data: entry.data)
            }
            try writer.finish()
            return path
        }
    }

    static func configuration(_ out: URL) -> RunConfiguration {
        RunConfiguration(outputDirectory: out, workers: 2)
    }

    @Test(arguments: [1, 2, 3, 6]) func mergedShardsEqualOneRunOverTheSortedInputs(count: Int) async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let inputs = try Self.archives(in: folder)
        let plan = try redSquarePipeline().compile(modelsDirectory: folder)
        let single = folder.appendingPathComponent("single")
        _ = try await PipelineRunner.run(plan, inputs: try inputs.sorted().map { try RunInput.fromArgument($0) },
                                         configuration: Self.configuration(single), toolVersion: "test")
        let out = folder.appendingPathComponent("sharded")
        // Shards finish in any order (here: last first), given the inputs in another order.
        for index in (0..<count).reversed() {
            let outcome = try await ShardedRun.run(plan, arguments: inputs.reversed(), shard: try Shard(index: index, count: count),
                                                   out: out, configuration: Self.configuration(out), toolVersion: "test")
            guard case .finished = outcome else { Issue.record("shard \(index) did not finish: \(outcome)"); return }
        }
        let summary = try ShardMerge.merge(into: out)
        #expect(summary.shards == count)
        let merged = try outputFiles(out).filter { !$0.key.hasPrefix("shards/") }
        let expected = try outputFiles(single)
        #expect(merged.keys.sorted() == expected.keys.sorted())
        for (path, data) in expected { #expect(merged[path] == data, "\(path) differs") }
        #expect(summary.rows == (try manifestRows(single)).count)
        // The merged folder reads as one run: its run.json names every input, in order, and exports match.
        let runJSON = try JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent("run.json"))) as? [String: Any]
        #expect((runJSON?["inputs"] as? [[String: Any]])?.compactMap { $0["path"] as? String } == inputs.sorted())
        // (What the export reads: these PPM inputs have no image to write.)
        func exported(_ run: URL) throws -> [String] {
            let images = try FinishedRun(directory: run).images()
            var lines: [String] = []
            while let image = try images.next() {
                lines.append("\(image.archive) \(image.entry) \(image.index) \(image.width)x\(image.height) \(image.facesJSON) "
                    + image.faces.map { "\($0.face):\($0.box.x),\($0.box.y),\($0.box.width),\($0.box.height)" }.joined(separator: ";"))
            }
            return lines
        }
        #expect(try exported(out) == exported(single))
        #expect(try !exported(single).isEmpty)
        // Merging again gives the same outputs.
        _ = try ShardMerge.merge(into: out)
        #expect(try outputFiles(out).filter { !$0.key.hasPrefix("shards/") } == merged)
    }

    @Test func aRerunOfACompleteShardDoesNothingAndAnInterruptedOneResumes() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let inputs = try Self.archives(in: folder)
        let counter = CallCounter()
        let plan = try redSquarePipeline(counter: counter).compile(modelsDirectory: folder)
        let out = folder.appendingPathComponent("out")
        let shard = try Shard(index: 1, count: 2)
        // Stopped after the first entry, as by SIGTERM: no _SUCCESS.
        let stopped = try await ShardedRun.run(plan, arguments: inputs, shard: shard, out: out,
                                               configuration: RunConfiguration(outputDirectory: out, workers: 1),
                                               toolVersion: "test", hooks: RunHooks(shouldStop: { counter.count("detect-red") > 0 }))
        guard case .interrupted = stopped else { Issue.record("expected an interrupted shard, got \(stopped)"); return }
        #expect(!FileManager.default.fileExists(atPath: ShardedRun.folder(shard, in: out).appendingPathComponent("_SUCCESS").path))
        let before = counter.count("detect-red")
        let resumed = try await ShardedRun.run(plan, arguments: inputs, shard: shard, out: out,
                                               configuration: Self.configuration(out), toolVersion: "test")
        guard case .finished(_, let assigned) = resumed else { Issue.record("expected the shard to finish, got \(resumed)"); return }
        #expect(assigned == Array(inputs.sorted()[2...]))
        let rows = try manifestRows(ShardedRun.folder(shard, in: out))
        #expect(Set(rows.map { "\($0[0])#\($0[2])#\($0[8])" }).count == rows.count, "no duplicated rows")
        let afterResume = counter.count("detect-red")
        #expect(afterResume > before)
        let again = try await ShardedRun.run(plan, arguments: inputs, shard: shard, out: out,
                                             configuration: Self.configuration(out), toolVersion: "test")
        guard case .alreadyComplete = again else { Issue.record("expected already complete, got \(again)"); return }
        #expect(counter.count("detect-red") == afterResume)
    }

    @Test func missingShardsAreListedWithTheirCommands() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let inputs = try Self.archives(in: folder)
        let plan = try redSquarePipeline().compile(modelsDirectory: folder)
        let out = folder.appendingPathComponent("out")
        _ = try await ShardedRun.run(plan, arguments: inputs, shard: try Shard(index: 1, count: 3), out: out,
                                     configuration: Self.configuration(out), toolVersion: "test")
        #expect {
            try ShardMerge.merge(into: out)
        } throws: { error in
            guard case .incomplete(let missing, let count, let rerun) = error as? ShardError else { return false }
            return missing == [0, 2] && count == 3 && rerun.count == 2 && rerun[0].hasSuffix("--shard 0/3") && rerun[1].hasSuffix("--shard 2/3")
        }
        #expect(!FileManager.default.fileExists(atPath: out.appendingPathComponent("manifest.csv").path))
    }

    @Test func shardsOfDifferentPipelinesOrDamagedManifestsAreRefused() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let inputs = try Self.archives(in: folder)
        let out = folder.appendingPathComponent("out")
        let first = try redSquarePipeline(minConfidence: 0.5).compile(modelsDirectory: folder)
        let other = try redSquarePipeline(minConfidence: 0.9).compile(modelsDirectory: folder)
        _ = try await ShardedRun.run(first, arguments: inputs, shard: try Shard(index: 0, count: 2), out: out,
                                     configuration: Self.configuration(out), toolVersion: "test")
        _ = try await ShardedRun.run(other, arguments: inputs, shard: try Shard(index: 1, count: 2), out: out,
                                     configuration: Self.configuration(out), toolVersion: "test")
        #expect {
            try ShardMerge.merge(into: out)
        } throws: { error in
            guard case .mismatch(let reason) = error as? ShardError else { return false }
            return reason.contains("shard 1-of-2")
        }
        // Same pipeline, but shard 1's manifest changed after it finished.
        _ = try await ShardedRun.run(first, arguments: inputs, shard: try Shard(index: 1, count: 2), out: out,
                                     configuration: RunConfiguration(outputDirectory: out, workers: 2, overwrite: true), toolVersion: "test")
        _ = try ShardMerge.merge(into: out)
        let manifest = ShardedRun.folder(try Shard(index: 1, count: 2), in: out).appendingPathComponent("manifest.csv")
        try (try Data(contentsOf: manifest) + Data("extra,row\n".utf8)).write(to: manifest)
        #expect(throws: ShardError.self) { try ShardMerge.merge(into: out) }
    }

    /// The merged run.json's summary adds every shard's counters, the
    /// verified-record ones included, and keeps every write failure.
    @Test func theCombinedSummaryAddsEveryShardsCounters() {
        var one = RunSummary()
        one.entries = 3; one.failedEntries = 1; one.faces = 4; one.keptFaces = 2; one.resumedEntries = 1
        one.cacheHits = 5; one.damagedRecords = 2; one.redoneEntries = 1; one.megapixels = 1.5
        var two = RunSummary()
        two.entries = 4; two.failedArchives = 1; two.faces = 1; two.keptFaces = 1; two.resumedEntries = 2
        two.cacheHits = 1; two.damagedRecords = 3; two.redoneEntries = 4; two.megapixels = 0.5
        two.writeFailure = "cannot write images/a.tar/x.png: No space left on device"; two.interrupted = true
        let combined = ShardMerge.combinedSummary([one, two])
        #expect(combined.entries == 7)
        #expect(combined.failedEntries == 1)
        #expect(combined.failedArchives == 1)
        #expect(combined.faces == 5)
        #expect(combined.keptFaces == 3)
        #expect(combined.resumedEntries == 3)
        #expect(combined.cacheHits == 6)
        #expect(combined.damagedRecords == 5)
        #expect(combined.redoneEntries == 5)
        #expect(combined.megapixels == 2.0)
        #expect(combined.interrupted)
        #expect(combined.writeFailure == two.writeFailure)
        #expect(combined.line.contains("5 cache records damaged, recomputed"))
        #expect(combined.line.contains("5 entries redone (outputs missing or changed)"))
    }
}
