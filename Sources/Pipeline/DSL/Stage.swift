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
/// Options a run may change (`facepipe run … --set STAGE.OPTION=VALUE`)
/// are listed once, in ``optionTable``, which the definition reads too.
///
/// Write your own stage by conforming a struct:
/// ```swift
/// struct DropSmallFaces: Stage {
///     var minWidth: Float
///     static var optionTable: [StageOption<Self>] { [StageOption("min-width", \.minWidth)] }
///     var definition: StageDefinition { StageDefinition("drop-small-faces", optionsOf: self) }
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

    /// The options `--set` can change, named as `describe` prints them.
    /// Default: none.
    static var optionTable: [StageOption<Self>] { get }
    /// This stage with the option `describe` calls `name` set from `text`.
    /// Default: looks the option up in ``optionTable`` and parses the text
    /// with the option's value type; an unknown option or an unparsable
    /// text is an error naming what is valid. Ranges are checked later, by
    /// ``validate()``.
    func settingOption(_ name: String, to text: String) throws(PipelineError) -> Self

    /// Plumbing: the stages this component contributes to the plan, in order.
    func _collect(into nodes: inout [StageNode])
    /// Plumbing: this component with `overrides` applied to every stage
    /// they name (containers forward them to the stages they hold).
    func _overriding(_ overrides: [StageOverride]) throws(PipelineError) -> Self
}

extension Stage {
    public var caching: StageCaching { .never }
    public func validate() throws(PipelineError) {}
    public static var optionTable: [StageOption<Self>] { [] }

    public func settingOption(_ name: String, to text: String) throws(PipelineError) -> Self {
        let table = Self.optionTable
        guard let option = table.first(where: { $0.name == name }) else {
            throw .unknownOption(stage: definition.name, option: name, available: table.map(\.name))
        }
        var stage = self
        guard option.assign(&stage, text) else {
            throw .invalidOption(stage: definition.name, option: name, reason: "expects \(option.expectedText), got \"\(text)\"")
        }
        return stage
    }

    /// A leaf stage: the overrides that name it, applied in order.
    public func _overriding(_ overrides: [StageOverride]) throws(PipelineError) -> Self {
        try applyingOwnOverrides(overrides)
    }

    /// This stage with the overrides that name it applied, in order (later ones win).
    func applyingOwnOverrides(_ overrides: [StageOverride]) throws(PipelineError) -> Self {
        var stage = self
        let name = definition.name
        for override in overrides where override.stage == name {
            stage = try stage.settingOption(override.option, to: override.value)
        }
        return stage
    }

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
            try process(consume input, context: context)._store(into: &state)
        }
        if let ordered = self as? any OrderedRecordStage {
            node.orderedPass = { ordered.makeOrderedPass() }
        }
        node.videoCover = self as? Redact
        nodes.append(node)
    }
}
