import Foundation

/// `OUT/shards/<i>-of-<n>/_SUCCESS`: written last by a shard that finished,
/// naming what it stands for, so `facepipe merge` can check every shard ran
/// the same pipeline, models and input list, and that its manifest is the
/// one it wrote.
public struct ShardCompletion: Codable, Sendable, Equatable {
    public static let fileName = "_SUCCESS"

    public var shard: Int
    public var shardCount: Int
    public var pipeline: String
    public var pipelineFingerprint: String
    public var resultsVersion: String
    /// `file sha256` of every model the plan loaded.
    public var models: [String]
    /// The whole sorted input list and the sizes it was assigned by.
    public var inputs: [String]
    public var inputSizes: [Int64]
    /// This shard's block of `inputs`.
    public var assigned: [Int]
    public var manifestBytes: Int
    public var manifestSHA256: String
    /// The command that ran the shard (to print how to rerun a missing one).
    public var commandLine: [String]

    func write(into folder: URL) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        var data = try encoder.encode(self)
        data.append(0x0A)
        try AtomicFile.write(data, to: folder.appendingPathComponent(Self.fileName))
    }

    /// The record in `folder`, or nil when there is none (an unfinished shard).
    static func read(from folder: URL) throws(ShardError) -> ShardCompletion? {
        let url = folder.appendingPathComponent(fileName)
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        do {
            return try JSONDecoder().decode(ShardCompletion.self, from: Data(contentsOf: url))
        } catch {
            throw .unreadable(path: url.path, reason: "\(error)")
        }
    }
}
