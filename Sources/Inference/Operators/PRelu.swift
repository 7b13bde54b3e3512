import TFLite

extension Operators {
    /// PRELU with a constant slope per channel (the last dimension).
    enum PRelu: OperatorPreparation {
        static let codes: [BuiltinOperator] = [.prelu]

        static func prepare(_ context: inout OperatorContext) throws -> Node? {
            let input = try context.activationInput(0)
            let alpha = try context.operand(1)
            let shape = context.shape(input), slopeShape = context.shape(alpha)
            let channels = shape.last ?? 0
            guard context.isConstant(alpha), channels > 0, slopeShape.reduce(1, *) == channels, slopeShape.last == channels else {
                throw InferenceError(.slope(context.tensor(alpha), shape: slopeShape, input: shape))
            }
            try context.setFloat32Output(shape)
            var node = Node(kind: .activation, inputs: [input], output: context.output)
            node.first = .prelu(alpha: alpha)
            return node
        }
    }
}
