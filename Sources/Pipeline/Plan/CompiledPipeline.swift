import FaceAnalysis
import Foundation

/// A checked pipeline, ready to run: stages in order with their fingerprints,
/// the verified models. Immutable; run configuration (workers, outputs,
/// `--from`) is separate.
public struct CompiledPipeline: Sendable {
    public let name: String
    public let summary: String
    /// The options set for this run (``Pipeline/overriding(_:)``); run.json records them.
    public let overrides: [StageOverride]
    /// Top-level stages in order; each runs itself.
    public let steps: [Step]
    /// Every model the stages need, verified and loaded: workers share them read-only.
    public let faceModels: FaceModels
    /// Where the models were loaded from (run.json records it).
    public let modelsDirectory: URL
    /// The tracking of video frames without a ``Track`` stage (``Pipeline/trackingFacesInVideo(_:)``).
    public internal(set) var videoTracking: FaceTracker.Configuration?
    /// A pipeline that redacts (its last ``Redact``) also covers a tracked
    /// face in the video frames where the detector missed it: between two
    /// detections, and before and after them, within the tracker's
    /// `maxMissingFrames` (FaceAnalysis's `TrackCover`, applied by the writer).
    public internal(set) var videoCover: Redact?

    /// Frames a tracked face may be missed and still keep its id: the
    /// tracking stage's, else the pipeline's video tracking's.
    package var videoTrackingReach: Int {
        let stage = steps.lazy.compactMap { $0.orderedPass?() as? TrackingPass }.first
        return (stage?.configuration ?? videoTracking ?? FaceTracker.Configuration()).maxMissingFrames
    }

    /// The in-order passes of a run: the stages' own, and, when no stage
    /// has one, the pipeline's tracking of video frames (which leaves stills alone).
    package func orderedPasses(_ steps: [Step]) -> (stages: [any OrderedRecordPass], videoFrames: (any OrderedRecordPass)?) {
        let stages = steps.compactMap { $0.orderedPass?() }
        return (stages, stages.isEmpty ? videoTracking.map { TrackingPass(configuration: $0) } : nil)
    }

    /// Version of the cache format and of facepipe's result semantics; bump to
    /// invalidate every cached result. 2: accurate mode searches its pyramid
    /// with the short-range detector on canvases; the detector letterbox
    /// sums rows first (last-bit differences in scores and boxes). 3: the
    /// finest pyramid level makes a `minFaceSize` face 26 px instead of 28.
    /// 4: with a pyramid, accurate mode runs the short-range detector on the
    /// whole frame too. 5: face records carry the redacted region and the
    /// aligned crops.
    public static let resultsVersion = "facepipe-results-6"

    /// One top-level stage of the plan.
    public struct Step: Sendable {
        public let definition: StageDefinition
        /// Runs the stage on an entry.
        package let run: StageNode.Run
        public let caching: StageCaching
        /// SHA-256 (hex) of the results version, the upstream fingerprint,
        /// this stage's canonical definition and every stored value of the
        /// stage (`StageReflection`).
        public let fingerprint: String
        /// Whether this run must recompute the stage even if cached (set by ``RecomputePolicy``).
        public internal(set) var recompute: Bool = false
        /// For stages with an in-order pass (``OrderedRecordStage``).
        let orderedPass: (@Sendable () -> any OrderedRecordPass)?

        package func cacheKey(contentHash: String) -> String {
            sha256Hex(Array((contentHash + ":" + fingerprint).utf8))
        }
    }

    init(name: String, summary: String, overrides: [StageOverride], nodes: [(node: StageNode, run: StageNode.Run)],
         faceModels: FaceModels, modelsDirectory: URL) {
        self.name = name
        self.summary = summary
        self.overrides = overrides
        let fingerprints = Self.fingerprints(of: nodes.map(\.node))
        self.steps = zip(nodes, fingerprints).map { entry, fingerprint in
            Step(definition: entry.node.definition, run: entry.run, caching: entry.node.caching, fingerprint: fingerprint,
                 orderedPass: entry.node.orderedPass)
        }
        self.faceModels = faceModels
        self.modelsDirectory = modelsDirectory
    }

    /// Each node's fingerprint: the SHA-256 of the upstream fingerprint
    /// (the results version for the first), its canonical definition and
    /// its stored values.
    static func fingerprints(of nodes: [StageNode]) -> [String] {
        var upstream = resultsVersion
        return nodes.map { node in
            upstream = sha256Hex(Array("\(upstream)\n\(node.definition.canonicalText)\n\(node.values)".utf8))
            return upstream
        }
    }

    /// The fingerprint of the whole pipeline (that of its last stage).
    public var fingerprint: String { steps.last?.fingerprint ?? sha256Hex(Array(Self.resultsVersion.utf8)) }

    /// The steps with `recompute` flags set for `policy`.
    public func steps(for policy: RecomputePolicy) throws(PipelineError) -> [Step] {
        var steps = self.steps
        let names = steps.map(\.definition.name)
        func position(of stage: String) throws(PipelineError) -> Int {
            let wanted = stage.lowercased()
            guard let i = steps.firstIndex(where: { $0.definition.allNames.contains { $0.lowercased() == wanted } }) else {
                throw .unknownStage(name: stage, pipeline: name, available: names)
            }
            return i
        }
        switch policy.kind {
        case .useCache:
            break
        case .from(let stage):
            let start = try position(of: stage)
            for i in start..<steps.count { steps[i].recompute = true }
        case .only(let stage):
            // A stage whose results are never cached runs anyway, as every
            // later uncached stage does: reusing the rest is all it takes.
            steps[try position(of: stage)].recompute = true
        case .everything:
            for i in steps.indices { steps[i].recompute = true }
        }
        return steps
    }
}

/// Which cached stage results a run may reuse.
public struct RecomputePolicy: Sendable, Hashable {
    package enum Kind: Sendable, Hashable { case useCache, from(String), only(String), everything }
    package let kind: Kind

    /// Reuse every cached result whose fingerprint matches (the default).
    public static let useCache = RecomputePolicy(kind: .useCache)
    /// Recompute `stage` and every later stage; reuse cached results before it.
    public static func from(_ stage: String) -> RecomputePolicy { RecomputePolicy(kind: .from(stage)) }
    /// Recompute only `stage`; reuse cached results for the others (stages
    /// that are never cached, such as drawing, run on every entry anyway).
    public static func only(_ stage: String) -> RecomputePolicy { RecomputePolicy(kind: .only(stage)) }
    /// Ignore the cache (results are still stored).
    public static let everything = RecomputePolicy(kind: .everything)
}
