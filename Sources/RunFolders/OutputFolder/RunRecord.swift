import Foundation
import Pipeline

/// `run.json`: what produced an output folder's results — the pipeline and
/// its stages, the models, the inputs with their sizes and SHA-256, the
/// run's configuration and counters, and when it ran. The only output file
/// that differs between identical runs (times, worker count, counters).
///
/// One type, read and written by the same code: a run writes it
/// (``PipelineRunner``), `facepipe merge` reads every shard's and writes one
/// for the whole run (`merging(_:rows:inputPaths:)`), and the next run into
/// the folder (`OutputFolderRule`), the report and the export read it back
/// with ``init(decoding:)``, which refuses a record that facepipe would not
/// have written, naming the field.
package struct RunRecord: Codable, Sendable {
    package struct PipelineInfo: Codable, Sendable {
        package var name: String
        package var fingerprint: String
        package var stages: [StageInfo]
    }
    package struct StageInfo: Codable, Sendable {
        package var definition: StageDefinition
        package var description: [String]
        package var fingerprint: String
        package var cached: Bool
        package var recomputed: Bool
    }
    package struct ModelInfo: Codable, Sendable {
        package var file: String
        package var sha256: String
    }
    /// An input's name in the manifest, its path as given, and its size and
    /// SHA-256 (``InputDigest``, taken by its source in the pass that read
    /// it), or why there are none.
    package struct InputInfo: Codable, Sendable {
        package var name: String
        package var path: String?
        package var sha256: String?
        /// The byte count the run read (a folder: its files' sizes summed).
        package var bytes: Int64?
        package var error: String?

        package init(name: String, path: String? = nil, sha256: String? = nil, bytes: Int64? = nil, error: String? = nil) {
            self.name = name
            self.path = path
            self.sha256 = sha256
            self.bytes = bytes
            self.error = error
        }
    }
    package struct ConfigurationInfo: Codable, Sendable {
        package var workers: Int
        package var recompute: String
        package var resume: Bool
        package var modelsDirectory: String

        package init(workers: Int, recompute: String, resume: Bool, modelsDirectory: String) {
            self.workers = workers
            self.recompute = recompute
            self.resume = resume
            self.modelsDirectory = modelsDirectory
        }
    }
    /// What `facepipe merge` adds: the shard count, the whole sorted input
    /// list and the merged manifest's rows.
    package struct MergeInfo: Codable, Sendable {
        package var shardCount: Int
        package var inputPaths: [String]
        package var rows: Int
    }

    package var tool: String
    package var toolVersion: String
    package var resultsVersion: String
    package var pipeline: PipelineInfo
    /// The options set for this run (`--set` and its short forms), in the order applied.
    package var overrides: [StageOverride]
    /// The arguments of the process that ran (`CommandLine.arguments`).
    package var commandLine: [String]
    package var models: [ModelInfo]
    package var inputs: [InputInfo]
    package var configuration: ConfigurationInfo
    package var manifestColumns: [String]
    package var summary: RunSummary
    package var started: String
    package var finished: String
    /// A merged folder's: the merge (nil for one run's folder).
    package var merged: MergeInfo?
    /// A merged folder's: each shard's own record, in shard order (nil for one run's folder).
    package var shards: [RunRecord]?

    /// Largest counter of a run summary read (so the counters of
    /// ``Shard/maximumCount`` shards add up without overflow).
    package static let counterLimit = 1 << 40

    package init(toolVersion: String, plan: CompiledPipeline, steps: [CompiledPipeline.Step], inputs: [InputInfo],
                 configuration: ConfigurationInfo, summary: RunSummary, started: Date, finished: Date) {
        tool = "facepipe"
        self.toolVersion = toolVersion
        resultsVersion = CompiledPipeline.resultsVersion
        pipeline = PipelineInfo(name: plan.name, fingerprint: plan.fingerprint, stages: steps.map {
            StageInfo(definition: $0.definition, description: $0.definition.describedLines(), fingerprint: $0.fingerprint,
                      cached: $0.caching == .records, recomputed: $0.recompute)
        })
        overrides = plan.overrides
        commandLine = CommandLine.arguments
        models = plan.faceModels.models.map { ModelInfo(file: $0.fileName, sha256: $0.sha256) }
        self.inputs = inputs
        self.configuration = configuration
        manifestColumns = Manifest.columns
        self.summary = summary
        let format = ISO8601DateFormatter()
        self.started = format.string(from: started)
        self.finished = format.string(from: finished)
    }

    // MARK: - Bytes

    /// The file's bytes: pretty-printed, keys sorted, slashes unescaped, one line end.
    package func encoded() throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return Array(try encoder.encode(self)) + [0x0A]
    }

    /// Writes `run.json` into the output folder (a temporary sibling renamed
    /// over the name: a link there is replaced, not written through).
    package func write(to directory: OutputDirectory) throws {
        try encoded().withUnsafeBytes { try directory.write($0, to: OutputLayout.runRecordName) }
    }

    /// A record from a file's bytes (a UTF-8 byte order mark is skipped).
    /// Every field facepipe writes must be there with its type; the
    /// summary's counters (and each shard's) must be within
    /// 0…``counterLimit`` and its megapixels finite and as small.
    package init(decoding bytes: some Collection<UInt8>) throws(Failure) {
        var data = Data(bytes)
        if data.starts(with: [0xEF, 0xBB, 0xBF]) { data.removeFirst(3) }
        do {
            self = try JSONDecoder().decode(Self.self, from: data)
        } catch let error as DecodingError {
            throw Failure(decoding: error)
        } catch {
            throw .notJSON(reason: "\(error)")
        }
        try check(field: "")
    }

    private func check(field prefix: String) throws(Failure) {
        let counters = [("entries", summary.entries), ("failedEntries", summary.failedEntries),
                        ("failedArchives", summary.failedArchives), ("faces", summary.faces),
                        ("keptFaces", summary.keptFaces), ("resumedEntries", summary.resumedEntries),
                        ("cacheHits", summary.cacheHits), ("damagedRecords", summary.damagedRecords),
                        ("redoneEntries", summary.redoneEntries), ("copiedMembers", summary.copiedMembers),
                        ("coveredVideoRegions", summary.coveredVideoRegions ?? 0),
                        ("skipped.count", summary.skipped.count), ("leftOutOfShards.count", summary.leftOutOfShards.count),
                        ("leftOutMembers.count", summary.leftOutMembers?.count ?? 0)]
        for (name, value) in counters where !(0...Self.counterLimit).contains(value) {
            throw .badField(prefix + "summary.\(name)", reason: "\(value) is not within 0…\(Self.counterLimit)")
        }
        guard summary.megapixels.isFinite, (0...Double(Self.counterLimit)).contains(summary.megapixels) else {
            throw .badField(prefix + "summary.megapixels", reason: "\(summary.megapixels)")
        }
        for (index, shard) in (shards ?? []).enumerated() { try shard.check(field: prefix + "shards.\(index).") }
    }

    /// Why bytes are not a record facepipe wrote.
    package enum Failure: Error, Sendable, Equatable, CustomStringConvertible {
        /// Not JSON, or not an object.
        case notJSON(reason: String)
        /// A field (a dotted path, e.g. `summary.entries`) that is missing, of another type, or out of range.
        case badField(String, reason: String)

        init(decoding error: DecodingError) {
            func path(_ codingPath: [any CodingKey]) -> String {
                codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue }.joined(separator: ".")
            }
            switch error {
            case .keyNotFound(let key, let context):
                self = .badField(path(context.codingPath + [key]), reason: "missing")
            case .typeMismatch(let type, let context):
                self = context.codingPath.isEmpty ? .notJSON(reason: "not a JSON object")
                    : .badField(path(context.codingPath), reason: "not a \(type)")
            case .valueNotFound(let type, let context):
                self = .badField(path(context.codingPath), reason: "null, not a \(type)")
            case .dataCorrupted(let context):
                self = context.codingPath.isEmpty ? .notJSON(reason: context.debugDescription)
                    : .badField(path(context.codingPath), reason: context.debugDescription)
            @unknown default:
                self = .notJSON(reason: "\(error)")
            }
        }

        /// The field named (empty when the bytes are not a JSON object).
        package var field: String {
            switch self {
            case .notJSON: ""
            case .badField(let field, _): field
            }
        }

        package var reason: String {
            switch self {
            case .notJSON(let reason), .badField(_, let reason): reason
            }
        }

        package var description: String {
            switch self {
            case .notJSON(let reason): "not a facepipe run record: \(reason)"
            case .badField(let field, let reason): "\(field): \(reason)"
            }
        }
    }
}

extension RunRecord.InputInfo {
    package init(name: String, path: String?, error: String?) {
        self.init(name: name, path: path, sha256: nil, bytes: nil, error: error)
    }
}
