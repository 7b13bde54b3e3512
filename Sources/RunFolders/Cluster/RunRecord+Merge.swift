import Foundation

extension RunRecord {
    /// The record of a merged folder, which the report, `export` and the
    /// next run read as one run's: the first shard's, with every shard's
    /// inputs in shard order (input order), the summaries combined
    /// (``ShardMerge/combinedSummary(_:)``), this process's command line,
    /// the earliest start and the latest finish, the merge itself
    /// (``MergeInfo``) and each shard's own record under ``shards``.
    /// Nil without shards.
    static func merging(_ shards: [RunRecord], rows: Int, inputPaths: [String]) -> RunRecord? {
        guard var record = shards.first else { return nil }
        record.inputs = shards.flatMap(\.inputs)
        record.summary = ShardMerge.combinedSummary(shards.map(\.summary))
        record.commandLine = CommandLine.arguments
        record.started = shards.map(\.started).min() ?? record.started
        record.finished = shards.map(\.finished).max() ?? record.finished
        record.merged = MergeInfo(shardCount: shards.count, inputPaths: inputPaths, rows: rows)
        record.shards = shards
        return record
    }
}
