import TFLite

extension Operators {
    /// CONV_2D: `[O, kh, kw, I]` weights over a `[1, H, W, I]` input.
    enum Convolution2D: OperatorPreparation {
        static let codes: [BuiltinOperator] = [.conv2D]

        static func prepare(_ context: inout OperatorContext) throws -> Node? {
            let operands = try ConvolutionOperands(context)
            let expected = operands.weightShape[3]
            guard expected == operands.channels else {
                throw InferenceError(.inputChannels(weights: context.tensor(operands.weights), expected: expected, got: operands.channels))
            }
            return try operands.node(&context, outChannels: operands.weightShape[0], depthwise: false)
        }
    }
}
