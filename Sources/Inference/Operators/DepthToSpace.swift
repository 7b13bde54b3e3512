import TFLite

extension Operators {
    /// DEPTH_TO_SPACE with a block of 1…64 that divides the channels.
    enum DepthToSpace: OperatorPreparation {
        static let codes: [BuiltinOperator] = [.depthToSpace]

        static func prepare(_ context: inout OperatorContext) throws -> Node? {
            guard case let .depthToSpace(block) = context.op.options else { throw InferenceError(.missingOptions) }
            let input = try context.activationInput(0)
            let (h, w, c) = try context.image(input)
            guard block >= 1, block <= 64, c % (block * block) == 0 else { throw InferenceError(.blockSize(block, channels: c)) }
            try context.setFloat32Output([1, h * block, w * block, c / (block * block)])
            return Node(kind: .depthToSpace(block: block), inputs: [input], output: context.output)
        }
    }
}
