import TFLite

extension Operators {
    /// PAD of a rank-4 tensor with constant INT32 paddings (zeros).
    enum Pad: OperatorPreparation {
        static let codes: [BuiltinOperator] = [.pad]

        /// The largest padding on either side of a dimension.
        static let largestPadding = 4096

        static func prepare(_ context: inout OperatorContext) throws -> Node? {
            let input = try context.activationInput(0)
            let paddings = try context.int32s(try context.operand(1))
            let s = context.shape(input)
            guard s.count == 4, paddings.count == 8, paddings.allSatisfy({ $0 >= 0 && $0 <= largestPadding }) else {
                throw InferenceError(.paddings(paddings, input: s))
            }
            var outShape: [Int] = []
            for d in 0..<4 { outShape.append(s[d] + paddings[2 * d] + paddings[2 * d + 1]) }
            try context.setFloat32Output(outShape)
            return Node(kind: .pad(before: [paddings[0], paddings[2], paddings[4], paddings[6]]), inputs: [input], output: context.output)
        }
    }
}
