/// Two stages run one after the other (what the builders fold a block into).
public struct _StageChain<First: Stage, Second: Stage>: Stage where First.Output == Second.Input {
    public let first: First
    public let second: Second

    public var definition: StageDefinition {
        StageDefinition("chain", children: [first.definition, second.definition])
    }

    public func validate() throws(PipelineError) {
        try first.validate()
        try second.validate()
    }

    public func process(_ input: consuming First.Input, context: StageContext) throws -> Second.Output {
        try second.process(first.process(input, context: context), context: context)
    }

    public func _collect(into nodes: inout [StageNode]) {
        first._collect(into: &nodes)
        second._collect(into: &nodes)
    }

    public func _overriding(_ overrides: [StageOverride]) throws(PipelineError) -> Self {
        try _StageChain(first: first._overriding(overrides), second: second._overriding(overrides))
    }

    /// The leaf definitions in order (chains flattened).
    var flattenedDefinitions: [StageDefinition] {
        var nodes: [StageNode] = []
        _collect(into: &nodes)
        return nodes.map(\.definition)
    }
}
