/// Builds a pipeline body from stages listed one per line.
///
/// `buildPartialBlock` folds the list pairwise, so there is no limit on the
/// number of stages, and each fold requires `A.Output == B.Input`: stages in
/// the wrong order do not compile. `buildFinalResult` only accepts a body
/// that starts from an archive entry and ends with ``WriteOutputs``.
@resultBuilder
public enum PipelineBuilder {
    public static func buildPartialBlock<S: Stage>(first: S) -> S { first }

    public static func buildPartialBlock<A: Stage, B: Stage>(accumulated: A, next: B) -> _StageChain<A, B>
    where A.Output == B.Input {
        _StageChain(first: accumulated, second: next)
    }

    public static func buildFinalResult<S: Stage>(_ component: S) -> S
    where S.Input == Frame<Phase.Encoded>, S.Output == RenderedEntry {
        component
    }
}

/// Builds the body of a per-face block or a reusable stage group: any
/// correctly ordered sequence of stages.
@resultBuilder
public enum StageBuilder {
    public static func buildPartialBlock<S: Stage>(first: S) -> S { first }

    public static func buildPartialBlock<A: Stage, B: Stage>(accumulated: A, next: B) -> _StageChain<A, B>
    where A.Output == B.Input {
        _StageChain(first: accumulated, second: next)
    }
}
