import TFLite

extension Operators {
    /// ADD of two computed tensors of the same shape (no broadcasting),
    /// with an optional fused RELU or RELU6.
    enum Add: OperatorPreparation {
        static let codes: [BuiltinOperator] = [.add]

        static func prepare(_ context: inout OperatorContext) throws -> Node? {
            guard case let .add(fused) = context.op.options else { throw InferenceError(.missingOptions) }
            let lhs = try context.activationInput(0), rhs = try context.activationInput(1)
            guard context.shape(lhs) == context.shape(rhs), !context.shape(lhs).isEmpty else {
                throw InferenceError(.operandShapes(context.shape(lhs), context.shape(rhs)))
            }
            try context.setFloat32Output(context.shape(lhs))
            var node = Node(kind: .add, inputs: [lhs, rhs], output: context.output)
            node.first = try context.activation(fused)
            return node
        }
    }
}
