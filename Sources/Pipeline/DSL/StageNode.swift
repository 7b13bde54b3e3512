/// A top-level stage as the plan sees it (plumbing for ``Stage/_collect(into:)``).
public struct StageNode: Sendable {
    public let definition: StageDefinition
    public let caching: StageCaching
    let validationFailure: PipelineError?
    /// For ``OrderedRecordStage``s: makes the writer's in-order pass.
    var orderedPass: (@Sendable () -> any OrderedRecordPass)? = nil
}
