import Foundation

/// `run.json`: what produced the outputs. The only output file that differs
/// between identical runs (it holds start/end times, the worker count and
/// the run's counters).
struct RunProvenance: Encodable {
    struct PipelineInfo: Encodable {
        var name: String
        var fingerprint: String
        var stages: [StageInfo]
    }
    struct StageInfo: Encodable {
        var definition: StageDefinition
        var description: [String]
        var fingerprint: String
        var cached: Bool
        var recomputed: Bool
    }
    struct ModelInfo: Encodable {
        var file: String
        var sha256: String
    }
    /// An input's path as given, and its size and SHA-256 (``InputDigest``,
    /// taken by its source in the pass that read it), or why there are none.
    struct InputInfo: Encodable {
        var name: String
        var path: String?
        var sha256: String?
        var bytes: Int64?
        var error: String?
    }
    struct ConfigurationInfo: Encodable {
        var workers: Int
        var recompute: String
        var resume: Bool
        var modelsDirectory: String
    }

    var tool: String
    var toolVersion: String
    var resultsVersion: String
    var pipeline: PipelineInfo
    /// The options set for this run (`--set` and its short forms), in the order applied.
    var overrides: [StageOverride]
    /// The arguments of the process that ran (`CommandLine.arguments`).
    var commandLine: [String]
    var models: [ModelInfo]
    var inputs: [InputInfo]
    var configuration: ConfigurationInfo
    var manifestColumns: [String]
    var summary: RunSummary
    var started: String
    var finished: String

    init(toolVersion: String, plan: CompiledPipeline, steps: [CompiledPipeline.Step], inputs: [InputInfo],
         configuration: RunConfiguration, summary: RunSummary, started: Date, finished: Date) {
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
        let recompute: String
        switch configuration.recompute.kind {
        case .useCache: recompute = "use-cache"
        case .from(let stage): recompute = "from \(stage)"
        case .only(let stage): recompute = "only \(stage)"
        case .everything: recompute = "everything"
        }
        self.configuration = ConfigurationInfo(workers: configuration.workers, recompute: recompute,
                                               resume: configuration.resume,
                                               modelsDirectory: plan.modelsDirectory.path)
        manifestColumns = Manifest.columns
        self.summary = summary
        let format = ISO8601DateFormatter()
        self.started = format.string(from: started)
        self.finished = format.string(from: finished)
    }

    /// Writes `run.json` into the output folder (a temporary sibling renamed
    /// over the name: a link there is replaced, not written through).
    func write(to directory: OutputDirectory) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        var data = try encoder.encode(self)
        data.append(0x0A)
        try data.withUnsafeBytes { try directory.write($0, to: "run.json") }
    }
}

extension RunProvenance.InputInfo {
    init(name: String, path: String?, error: String?) {
        self.init(name: name, path: path, sha256: nil, bytes: nil, error: error)
    }
}
