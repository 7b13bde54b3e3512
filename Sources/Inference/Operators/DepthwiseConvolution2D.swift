import TFLite

extension Operators {
    /// DEPTHWISE_CONV_2D with depth multiplier 1: `[1, kh, kw, C]` weights,
    /// one filter per channel of a `[1, H, W, C]` input.
    enum DepthwiseConvolution2D: OperatorPreparation {
        static let codes: [BuiltinOperator] = [.depthwiseConv2D]

        static func prepare(_ context: inout OperatorContext) throws -> Node? {
            let operands = try ConvolutionOperands(context)
            let shape = operands.weightShape, multiplier = operands.options.depthMultiplier
            guard multiplier == 1, shape[0] == 1, shape[3] == operands.channels else {
                throw InferenceError(.depthwiseWeights(context.tensor(operands.weights), shape: shape, multiplier: multiplier,
                                                       channels: operands.channels))
            }
            return try operands.node(&context, outChannels: operands.channels, depthwise: true)
        }
    }
}
