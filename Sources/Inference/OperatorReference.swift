import TFLite

/// An operator of a model file as errors name it: its position in the
/// subgraph and its builtin code.
public struct OperatorReference: Sendable, Hashable, CustomStringConvertible {
    public var index: Int
    public var code: BuiltinOperator

    public init(index: Int, code: BuiltinOperator) {
        self.index = index
        self.code = code
    }

    public var description: String { "operator \(index) (\(code))" }
}
