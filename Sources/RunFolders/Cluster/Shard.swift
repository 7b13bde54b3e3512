import Foundation

/// One task's part of a sharded run: shard `index` of `count` (0-based).
/// `--shard I/N` names it; `--shard auto` reads it from the scheduler that
/// started the task (``fromScheduler(environment:count:)``).
package struct Shard: Sendable, Equatable, CustomStringConvertible {
    package let index: Int
    package let count: Int

    /// The most tasks a run can be split over (more than Kubernetes
    /// Indexed Jobs or AWS Batch array jobs run): a larger count is refused
    /// before anything is allocated for it.
    package static let maximumCount = 100_000

    package init(index: Int, count: Int) throws(ShardError) {
        guard count >= 1, (0..<count).contains(index) else {
            throw .invalid("shard \(index) of \(count): need 0 ≤ index < count")
        }
        guard count <= Self.maximumCount else {
            throw .invalid("shard \(index) of \(count): a run is split over at most \(Self.maximumCount) shards")
        }
        self.index = index; self.count = count
    }

    /// `I/N`, as `--shard` takes it.
    package init(parsing text: String) throws(ShardError) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let i = Int(parts[0]), let n = Int(parts[1]) else {
            throw .invalid("--shard must be I/N (0 ≤ I < N) or auto, got \(text)")
        }
        try self.init(index: i, count: n)
    }

    /// The folder under `OUT/shards/` this shard writes: `3-of-8`.
    package var folderName: String { "\(index)-of-\(count)" }

    package var description: String { "shard \(index) of \(count)" }

    /// The shard a cluster scheduler gave this task, from its environment:
    ///
    /// - Slurm job arrays: `SLURM_ARRAY_TASK_ID` with `SLURM_ARRAY_TASK_COUNT`,
    ///   or with `SLURM_ARRAY_TASK_MIN`/`MAX` (index counted from MIN);
    /// - Kubernetes Indexed Jobs: `JOB_COMPLETION_INDEX`, with the count from
    ///   `count` (`--shard-count`) or `FACEPIPE_SHARD_COUNT`;
    /// - AWS Batch array jobs: `AWS_BATCH_JOB_ARRAY_INDEX` with `AWS_BATCH_JOB_ARRAY_SIZE`.
    ///
    /// `count` (`--shard-count`), when given, must agree with what the
    /// scheduler says. Throws naming the variables when none is set.
    package static func fromScheduler(environment: [String: String], count: Int? = nil) throws(ShardError) -> Shard {
        func integer(_ name: String) throws(ShardError) -> Int? {
            guard let text = environment[name] else { return nil }
            guard let value = Int(text.trimmingCharacters(in: .whitespaces)), value >= 0 else {
                throw .invalid("\(name)=\(text) is not a non-negative integer")
            }
            return value
        }
        func agreeing(_ index: Int, _ total: Int, from scheduler: String) throws(ShardError) -> Shard {
            if let count, count != total {
                throw .invalid("--shard-count \(count) disagrees with \(scheduler), which runs \(total) tasks")
            }
            return try Shard(index: index, count: total)
        }
        if let id = try integer("SLURM_ARRAY_TASK_ID") {
            if let total = try integer("SLURM_ARRAY_TASK_COUNT") {
                let minimum = try integer("SLURM_ARRAY_TASK_MIN") ?? 0
                return try agreeing(id - minimum, total, from: "Slurm (SLURM_ARRAY_TASK_COUNT)")
            }
            if let minimum = try integer("SLURM_ARRAY_TASK_MIN"), let maximum = try integer("SLURM_ARRAY_TASK_MAX") {
                return try agreeing(id - minimum, maximum - minimum + 1, from: "Slurm (SLURM_ARRAY_TASK_MIN/MAX)")
            }
            throw .invalid("SLURM_ARRAY_TASK_ID is set but neither SLURM_ARRAY_TASK_COUNT nor SLURM_ARRAY_TASK_MIN/MAX")
        }
        if let index = try integer("JOB_COMPLETION_INDEX") {
            if let count { return try Shard(index: index, count: count) }
            guard let total = try integer("FACEPIPE_SHARD_COUNT") else {
                throw .invalid("JOB_COMPLETION_INDEX is set (a Kubernetes Indexed Job): give the Job's completions as --shard-count N or FACEPIPE_SHARD_COUNT")
            }
            return try Shard(index: index, count: total)
        }
        if let index = try integer("AWS_BATCH_JOB_ARRAY_INDEX") {
            guard let total = try integer("AWS_BATCH_JOB_ARRAY_SIZE") else {
                throw .invalid("AWS_BATCH_JOB_ARRAY_INDEX is set but AWS_BATCH_JOB_ARRAY_SIZE is not")
            }
            return try agreeing(index, total, from: "AWS Batch (AWS_BATCH_JOB_ARRAY_SIZE)")
        }
        throw .invalid("--shard auto found no scheduler task index: set by Slurm job arrays (SLURM_ARRAY_TASK_ID), "
                       + "Kubernetes Indexed Jobs (JOB_COMPLETION_INDEX) or AWS Batch array jobs (AWS_BATCH_JOB_ARRAY_INDEX); "
                       + "or give --shard I/N")
    }
}

/// A shard that cannot be used or merged, with the reason.
package enum ShardError: Error, CustomStringConvertible, Equatable {
    case invalid(String)
    case incomplete(missing: [Int], count: Int, rerun: [String])
    case mismatch(String)
    case unreadable(path: String, reason: String)
    /// An output of the merge that cannot be written (a link in its way, a full disk).
    case unwritable(path: String, reason: String)
    /// A shard's record (`_SUCCESS`) whose `field` cannot be right.
    case badRecord(path: String, field: String, reason: String)

    package var description: String {
        switch self {
        case .invalid(let reason): return reason
        case let .incomplete(missing, count, rerun):
            // At most `listed` of each: a count of 100000 must not print 100000 lines.
            let listed = 20
            let more = { (total: Int) in total > listed ? ["… and \(total - listed) more"] : [] }
            let numbers = (missing.prefix(listed).map(String.init) + more(missing.count)).joined(separator: ", ")
            var lines = ["\(missing.count) of \(count) shards are not complete: \(numbers)"]
            if !rerun.isEmpty { lines.append("rerun each with:"); lines += (rerun.prefix(listed) + more(rerun.count)).map { "  " + $0 } }
            return lines.joined(separator: "\n")
        case .mismatch(let reason): return reason
        case let .unreadable(path, reason): return "cannot read \(path): \(reason)"
        case let .unwritable(path, reason): return "cannot write \(path): \(reason)"
        case let .badRecord(path, field, reason): return "\(path): \(field): \(reason)"
        }
    }
}
