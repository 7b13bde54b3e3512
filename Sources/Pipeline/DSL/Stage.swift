/// One step of a pipeline: turns an `Input` into an `Output`.
///
/// The associated types make the order part of the type: a stage whose input
/// only an earlier stage produces cannot be placed before it (``Landmarks``
/// reads a ``FaceSlot`` that only ``ForEachFace`` hands out, and
/// ``ForEachFace`` needs the ``Frame`` of ``DetectFaces``).
///
/// A stage does no I/O in its initializer; options are plain values checked
/// by ``validate()`` when the pipeline is compiled. Per-image work happens in
/// ``process(_:context:)``, which may run concurrently on several workers,
/// each with its own ``StageContext``. The input is `consuming`: the runner
/// hands each stage the only reference to the frame, so a stage that takes
/// the pixels out of it (``Annotate``) draws on them in place instead of
/// copying the picture. A conformance may declare the parameter without
/// the modifier; it then borrows, as before.
///
/// Write your own stage by conforming a struct:
/// ```swift
/// struct DropSmallFaces: Stage {
///     var minWidth: Float
///     var definition: StageDefinition { StageDefinition("drop-small-faces", options: ["min-width": "\(minWidth)"]) }
///     func process(_ frame: Frame<Phase.Detected>, context: StageContext) throws -> Frame<Phase.Detected> {
///         var frame = frame
///         frame.reject(reason: "narrower than \(minWidth) px") { $0.box.width < minWidth }
///         return frame
///     }
/// }
/// ```
public protocol Stage<Input, Output>: Sendable {
    associatedtype Input: Sendable
    associatedtype Output: Sendable

    /// Name and options, as `describe` prints them and the fingerprint hashes them.
    var definition: StageDefinition { get }
    /// Whether the runner may reuse this stage's cached results. Default: never.
    var caching: StageCaching { get }
    /// Checks options (ranges, combinations). Called by `Pipeline.compile`, never per image.
    func validate() throws(PipelineError)
    /// The per-image work.
    func process(_ input: consuming Input, context: StageContext) throws -> Output

    /// Plumbing: the stages this component contributes to the plan, in order.
    func _collect(into nodes: inout [StageNode])
}

extension Stage {
    public var caching: StageCaching { .never }
    public func validate() throws(PipelineError) {}

    /// A stage inside ``ForEachFace`` (its values are per-face slots): a
    /// node that describes it but cannot run as a top-level step.
    public func _collect(into nodes: inout [StageNode]) {
        nodes.append(StageNode(definition: definition, caching: caching, values: StageReflection.text(of: self),
                               validationFailure: validationFailure, run: nil))
    }

    var validationFailure: PipelineError? {
        do { try validate(); return nil } catch { return error }
    }
}

extension Stage where Input: _StepValue, Output: _StepValue {
    /// A top-level stage: a node that runs itself on an ``EntryState``.
    public func _collect(into nodes: inout [StageNode]) {
        var node = StageNode(definition: definition, caching: caching, values: StageReflection.text(of: self),
                             validationFailure: validationFailure) { state, context in
            let input = Input._take(from: &state)
            try process(input, context: context)._store(into: &state)
        }
        if let ordered = self as? any OrderedRecordStage {
            node.orderedPass = { ordered.makeOrderedPass() }
        }
        nodes.append(node)
    }
}
