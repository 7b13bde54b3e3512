import ArchiveIO
import Foundation

/// `OUT/shards/<i>-of-<n>/_SUCCESS`: written last by a shard that finished,
/// naming what it stands for, so `facepipe merge` can check every shard ran
/// the same pipeline, models and input list, that its manifest is the one
/// it wrote and that every output file it merges is the one the shard wrote.
/// Read back (from a folder that may come from anyone, through
/// `ShardedRunFolder`) by `init(decoding:path:shard:)`, which checks it.
package struct ShardCompletion: Codable, Sendable, Equatable {
    package var shard: Int
    package var shardCount: Int
    package var pipeline: String
    package var pipelineFingerprint: String
    package var resultsVersion: String
    /// `file sha256` of every model the plan loaded.
    package var models: [String]
    /// The whole sorted input list and the sizes it was assigned by.
    package var inputs: [String]
    package var inputSizes: [Int64]
    /// This shard's block of `inputs`.
    package var assigned: [Int]
    package var manifestBytes: Int
    package var manifestSHA256: String
    /// The command that ran the shard (to print how to rerun a missing one).
    package var commandLine: [String]
    /// The shard's file list, `_SUCCESS.files` (``ShardFileList``: every
    /// output file the merge takes, with its size and SHA-256), sealed by
    /// its own size and SHA-256; nil in a record written by an earlier
    /// facepipe (which listed the files here, in memory: merge refuses it).
    package var outputList: FileSeal?
    /// The shard's `skipped.csv` (``SkippedFile``), sealed the same way; nil in an earlier record.
    package var skippedList: FileSeal?

    /// A file's size and SHA-256 (lowercase hex).
    package struct FileSeal: Codable, Sendable, Equatable {
        package var bytes: Int
        package var sha256: String

        static func isSHA256(_ text: String) -> Bool {
            text.utf8.count == 64 && text.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
        }

        package init(bytes: Int, sha256: String) {
            self.bytes = bytes
            self.sha256 = sha256
        }
    }

    package func write(into folder: URL) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        var data = try encoder.encode(self)
        data.append(0x0A)
        try AtomicFile.write(data, to: folder.appendingPathComponent(OutputLayout.shardCompletionName))
    }

    /// Throws naming `path` (the record's file) and the first field that
    /// cannot be right for shard `index` of `count`: another shard or
    /// count, inputs and sizes of different lengths, a negative size or
    /// sizes whose total overflows, an assigned input out of the list, a
    /// negative manifest size, or a file list or skipped list that is
    /// missing (an earlier facepipe's record) or has a negative size or no SHA-256.
    package func check(path: String, index: Int, count: Int) throws(ShardError) {
        func bad(_ field: String, _ reason: String) -> ShardError { .badRecord(path: path, field: field, reason: reason) }
        guard shard == index else { throw bad("shard", "\(shard), but the folder is shard \(index)") }
        guard shardCount == count else { throw bad("shardCount", "\(shardCount), but the folder is of \(count) shards") }
        guard inputs.count == inputSizes.count else {
            throw bad("inputSizes", "\(inputSizes.count) sizes for \(inputs.count) inputs")
        }
        var total: Int64 = 0
        for size in inputSizes {
            guard size >= 0 else { throw bad("inputSizes", "a negative size, \(size)") }
            let (sum, overflow) = total.addingReportingOverflow(size)
            guard !overflow else { throw bad("inputSizes", "the sizes add up to more than \(Int64.max) bytes") }
            total = sum
        }
        if let outside = assigned.first(where: { !inputs.indices.contains($0) }) {
            throw bad("assigned", "input \(outside), the list has \(inputs.count)")
        }
        guard manifestBytes >= 0 else { throw bad("manifestBytes", "\(manifestBytes)") }
        for (field, seal) in [("outputList", outputList), ("skippedList", skippedList)] {
            guard let seal else {
                throw bad(field, "missing (written by an earlier facepipe, which recorded its files otherwise): rerun the shard (it resumes)")
            }
            guard seal.bytes >= 0, FileSeal.isSHA256(seal.sha256) else { throw bad(field, "\(seal.bytes) bytes, SHA-256 \(seal.sha256)") }
        }
    }

    package init(shard: Int, shardCount: Int, pipeline: String, pipelineFingerprint: String, resultsVersion: String, models: [String], inputs: [String], inputSizes: [Int64], assigned: [Int], manifestBytes: Int, manifestSHA256: String, commandLine: [String], outputList: FileSeal? = nil, skippedList: FileSeal? = nil) {
        self.shard = shard
        self.shardCount = shardCount
        self.pipeline = pipeline
        self.pipelineFingerprint = pipelineFingerprint
        self.resultsVersion = resultsVersion
        self.models = models
        self.inputs = inputs
        self.inputSizes = inputSizes
        self.assigned = assigned
        self.manifestBytes = manifestBytes
        self.manifestSHA256 = manifestSHA256
        self.commandLine = commandLine
        self.outputList = outputList
        self.skippedList = skippedList
    }
}

extension ShardCompletion {
    /// A record from `_SUCCESS` bytes read at `path`, checked for `shard`
    /// (``check(path:index:count:)``) before anything uses it.
    package init(decoding bytes: [UInt8], path: String, shard: Shard) throws(ShardError) {
        do { self = try JSONDecoder().decode(Self.self, from: Data(bytes)) } catch {
            throw .unreadable(path: path, reason: "not a shard record: \(error)")
        }
        try check(path: path, index: shard.index, count: shard.count)
    }
}
