import FaceAnalysis
import Foundation
import Inference

/// A named pipeline: a description of stages, nothing more. Creating one does
/// no I/O; ``compile(modelsDirectory:kernels:)`` checks it and returns the immutable
/// plan a runner executes.
///
/// ```swift
/// let faces = Pipeline("faces", summary: "detect, landmark, annotate") {
///     Decode()
///     Orient()
///     DetectFaces(.accurate)
///     FilterConfidence(atLeast: 0.7)
///     ForEachFace { Landmarks() }
///     Annotate()
///     WriteOutputs()
/// }
/// ```
public struct Pipeline: Sendable {
    public let name: String
    /// One line for `facepipe pipelines`.
    public let summary: String
    /// Why its defaults are what they are (`facepipe describe`).
    public let rationale: String
    /// The options set for this run by ``overriding(_:)``, in the order applied.
    public let overrides: [StageOverride]
    /// The tracking video frames get without a ``Track`` stage
    /// (``trackingFacesInVideo(_:)``); nil: none. Still images are never
    /// tracked by it, so their outputs do not depend on it.
    public private(set) var videoTracking: Track?
    let root: any Stage<Frame<Phase.Encoded>, RenderedEntry>

    public init<Body: Stage>(_ name: String, summary: String = "", rationale: String = "", @PipelineBuilder _ body: () -> Body)
    where Body.Input == Frame<Phase.Encoded>, Body.Output == RenderedEntry {
        self.init(name: name, summary: summary, rationale: rationale, overrides: [], root: body())
    }

    private init(name: String, summary: String, rationale: String, overrides: [StageOverride],
                 root: any Stage<Frame<Phase.Encoded>, RenderedEntry>) {
        self.name = name
        self.summary = summary
        self.rationale = rationale
        self.overrides = overrides
        self.root = root
    }

    /// This pipeline with stage options set by name (`--set STAGE.OPTION=VALUE`),
    /// rebuilt from its typed stages: every stage called `STAGE`, top-level
    /// or inside ``ForEachFace``, gets the option (a name that appears twice
    /// sets both); later overrides of one option win. Unknown stages,
    /// unknown options and unparsable values are errors naming what is
    /// valid; ranges are checked by each stage's ``Stage/validate()`` in
    /// ``compile(modelsDirectory:kernels:)``. The overridden values are stored
    /// values of the stages, so they change the stages' fingerprints.
    public func overriding(_ overrides: [StageOverride]) throws(PipelineError) -> Pipeline {
        var names: [String] = []
        for name in stages.flatMap(\.allNames) where !names.contains(name) { names.append(name) }
        for override in overrides where !names.contains(override.stage) {
            throw .unknownStage(name: override.stage, pipeline: name, available: names)
        }
        func rebuilt<Body: Stage>(_ body: Body) throws(PipelineError) -> any Stage<Frame<Phase.Encoded>, RenderedEntry>
        where Body.Input == Frame<Phase.Encoded>, Body.Output == RenderedEntry {
            try body._overriding(overrides)
        }
        var pipeline = Pipeline(name: name, summary: summary, rationale: rationale, overrides: self.overrides + overrides,
                                root: try rebuilt(root))
        pipeline.videoTracking = videoTracking
        return pipeline
    }

    /// This pipeline with each face of a video given a `tracking_id` that
    /// stays with it across the video's frames (``Track``'s pass, restarting
    /// with each video), without a ``Track`` stage: still images are not
    /// tracked (a pipeline with a ``Track`` stage tracks both, and this is
    /// not used). `faces`, `anonymize` and `training-annotations` do this.
    public func trackingFacesInVideo(_ track: Track = Track()) -> Pipeline {
        var pipeline = self
        pipeline.videoTracking = track
        return pipeline
    }

    /// The top-level stages in order (chains flattened).
    public var stages: [StageDefinition] { nodes.map(\.definition) }

    /// The fingerprint each top-level stage gets when compiled (no models are loaded).
    public var fingerprints: [String] { CompiledPipeline.fingerprints(of: nodes) }

    /// Every model the stages name, each once, in stage order: what
    /// ``compile(modelsDirectory:kernels:)`` loads and a models folder must hold.
    public var models: [FaceModel] {
        var models: [FaceModel] = []
        for stage in stages {
            for model in stage.allModels where !models.contains(model) { models.append(model) }
        }
        return models
    }

    var nodes: [StageNode] {
        var nodes: [StageNode] = []
        root._collect(into: &nodes)
        return nodes
    }

    /// Validates every stage's options, loads exactly the models the stages
    /// name from `modelsDirectory` (each verified by its SHA-256, parsed and
    /// planned once), and returns the plan that owns them. A missing or
    /// wrong model is an error here, before any entry is read. `kernels` is
    /// the micro-kernel set the models are planned with (the run
    /// configuration's choice; every set writes the same bytes).
    public func compile(modelsDirectory: URL, kernels: KernelSet = .best) throws(PipelineError) -> CompiledPipeline {
        let nodes = self.nodes
        var runnable: [(node: StageNode, run: StageNode.Run)] = []
        for node in nodes {
            if let failure = node.validationFailure { throw failure }
            guard let run = node.run else {
                throw .invalidOption(stage: node.definition.name, option: "placement",
                                     reason: "is a per-face stage; place it inside ForEachFace { … }")
            }
            runnable.append((node, run))
        }
        let loaded: FaceModels
        do {
            loaded = try FaceModels.load(models, from: modelsDirectory, kernels: kernels)
        } catch {
            throw PipelineError(loading: error)
        }
        if let videoTracking { try videoTracking.validate() }
        var plan = CompiledPipeline(name: name, summary: summary, overrides: overrides, nodes: runnable,
                                    faceModels: loaded, modelsDirectory: modelsDirectory)
        plan.videoTracking = videoTracking?.configuration
        plan.videoCover = nodes.last { $0.videoCover != nil }?.videoCover
        return plan
    }
}

extension StageDefinition {
    /// This stage's models and its children's.
    public var allModels: [FaceModel] { models + children.flatMap(\.allModels) }
}
