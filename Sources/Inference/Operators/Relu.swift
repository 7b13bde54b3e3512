import TFLite

extension Operators {
    /// RELU and RELU6 of a computed, non-scalar tensor.
    enum Relu: OperatorPreparation {
        static let codes: [BuiltinOperator] = [.relu, .relu6]

        static func prepare(_ context: inout OperatorContext) throws -> Node? {
            let input = try context.activationInput(0)
            guard !context.shape(input).isEmpty else { throw InferenceError(.scalarInput(context.tensor(input))) }
            try context.setFloat32Output(context.shape(input))
            var node = Node(kind: .activation, inputs: [input], output: context.output)
            node.first = context.op.code == .relu ? .relu : .relu6
            return node
        }
    }
}
