import TFLite

/// One kind of TFLite operator, prepared in its own file: its operands
/// validated, its output shape inferred and checked against the file,
/// constants folded, and the node to run returned (as XNNPACK keeps an
/// operator's create and reshape in `src/subgraph/<operator>.c`).
///
/// The planner finds the preparation by code (`Operators.preparation(for:)`)
/// and knows nothing else about the operator.
protocol OperatorPreparation: SendableMetatype {
    /// The builtin codes this type prepares.
    static var codes: [BuiltinOperator] { get }

    /// Validates `context.op`, sets its output's shape, and returns the node
    /// to execute, or nil when the operator only transforms constants and
    /// was folded (`context.fold`).
    /// - Throws: `InferenceError`; the planner adds the operator's reference.
    static func prepare(_ context: inout OperatorContext) throws -> Node?
}

/// The operators the engine supports: one `OperatorPreparation` each.
enum Operators {
    static let all: [any OperatorPreparation.Type] = [
        Dequantize.self, Densify.self, Convolution2D.self, DepthwiseConvolution2D.self, MaxPool2D.self, Add.self,
        Relu.self, PRelu.self, Pad.self, Reshape.self, Concatenation.self, ResizeBilinear.self,
        ResizeNearestNeighbor.self, DepthToSpace.self,
    ]

    private static let byCode: [BuiltinOperator: any OperatorPreparation.Type] = {
        var table: [BuiltinOperator: any OperatorPreparation.Type] = [:]
        for preparation in all {
            for code in preparation.codes {
                precondition(table[code] == nil, "\(code) has two preparations")
                table[code] = preparation
            }
        }
        return table
    }()

    /// The preparation of `code`; nil when the engine does not support it.
    static func preparation(for code: BuiltinOperator) -> (any OperatorPreparation.Type)? { byCode[code] }
}
