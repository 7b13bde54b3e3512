/// Runs a block of per-face stages on each kept face (rejected faces are
/// skipped, MediaPipe's "landmarks on the subset"), then gathers the faces
/// back into the frame in detection order.
///
/// ```swift
/// ForEachFace {
///     Landmarks()
///     Classify()
/// }
/// ```
public struct ForEachFace<Body: Stage>: Stage
where Body.Input == FaceSlot<FacePhase.Detected>, Body.Output: _FaceSlotValue {
    public let body: Body

    public init(@StageBuilder _ body: () -> Body) {
        self.body = body()
    }

    private init(body: Body) {
        self.body = body
    }

    public var definition: StageDefinition {
        var nodes: [StageNode] = []
        body._collect(into: &nodes)
        return StageDefinition("for-each-face", children: nodes.map(\.definition))
    }

    public var caching: StageCaching { .records }

    public func validate() throws(PipelineError) { try body.validate() }

    /// Overrides reach the per-face stages of the body (`landmarks.iris=false`).
    public func _overriding(_ overrides: [StageOverride]) throws(PipelineError) -> Self {
        try ForEachFace(body: body._overriding(overrides)).applyingOwnOverrides(overrides)
    }

    public func process(_ frame: Frame<Phase.Detected>, context: StageContext) throws -> Frame<Phase.Detected> {
        var frame = frame
        for i in frame.record.faces.indices where frame.record.faces[i].isKept {
            let slot = FaceSlot<FacePhase.Detected>(image: frame.image, face: frame.record.faces[i])
            do {
                frame.record.faces[i] = try body.process(slot, context: context).face
            } catch {
                throw StageFailure(stage: "face \(frame.record.faces[i].face)", error: error)
            }
        }
        return frame
    }
}
