/// A top-level stage as the plan sees it (plumbing for `Stage/_collect(into:)`).
public struct StageNode: Sendable {
    /// Runs the stage on an entry, converting its phase-typed input and
    /// output from and to the untyped ``EntryState``.
    public typealias Run = @Sendable (inout EntryState, StageContext) throws -> Void

    public let definition: StageDefinition
    public let caching: StageCaching
    /// Every stored value of the stage (``StageReflection``), for the fingerprint.
    let values: String
    let validationFailure: PipelineError?
    /// Nil for stages whose input or output is not a ``_StepValue``
    /// (per-face stages, which ``ForEachFace`` runs): such a stage cannot be
    /// a top-level step, and `compile()` says so.
    let run: Run?
    /// For ``OrderedRecordStage``s: makes the writer's in-order pass.
    var orderedPass: (@Sendable () -> any OrderedRecordPass)? = nil
    /// For ``Redact``: how the writer covers a tracked face in the video
    /// frames where the detector missed it (``CompiledPipeline/videoCover``).
    var videoCover: Redact? = nil
}
