import TFLite

/// The operands CONV_2D and DEPTHWISE_CONV_2D check alike: a computed
/// `[1, H, W, C]` input, constant rank-4 weights and an optional constant
/// bias, no dilation, a positive stride.
struct ConvolutionOperands {
    let options: OperatorOptions.Convolution
    let input: Int
    let weights: Int
    let bias: Int?
    let height: Int, width: Int, channels: Int
    /// The weights' shape: `[O, kh, kw, I]`, or `[1, kh, kw, C]` for a depthwise convolution.
    let weightShape: [Int]

    init(_ context: OperatorContext) throws {
        guard case let .convolution(options) = context.op.options else { throw InferenceError(.missingOptions) }
        let input = try context.activationInput(0)
        let weights = try context.operand(1)
        let bias = try context.optionalOperand(2)
        for constant in [weights] + (bias.map { [$0] } ?? []) where !context.isConstant(constant) {
            throw InferenceError(.nonConstantWeights(context.tensor(constant)))
        }
        let image = try context.image(input)
        let weightShape = context.shape(weights)
        guard weightShape.count == 4 else { throw InferenceError(.weightsRank(context.tensor(weights), shape: weightShape)) }
        guard options.dilationWidth == 1, options.dilationHeight == 1 else {
            throw InferenceError(.dilation(height: options.dilationHeight, width: options.dilationWidth))
        }
        guard options.strideWidth >= 1, options.strideHeight >= 1 else {
            throw InferenceError(.stride(height: options.strideHeight, width: options.strideWidth))
        }
        self.options = options
        self.input = input
        self.weights = weights
        self.bias = bias
        height = image.height
        width = image.width
        channels = image.channels
        self.weightShape = weightShape
    }

    /// Checks the bias against `outChannels`, plans the window, sets the
    /// output, counts multiply-accumulates and parameters, and returns the node.
    func node(_ context: inout OperatorContext, outChannels: Int, depthwise: Bool) throws -> Node {
        if let bias, context.shape(bias).reduce(1, *) != outChannels {
            throw InferenceError(.biasSize(context.tensor(bias), shape: context.shape(bias), outputChannels: outChannels))
        }
        let geometry = try WindowGeometry(inHeight: height, inWidth: width, channels: channels, outChannels: outChannels,
                                          kernelHeight: weightShape[1], kernelWidth: weightShape[2], strideHeight: options.strideHeight,
                                          strideWidth: options.strideWidth, padding: options.padding)
        try context.setFloat32Output([1, geometry.outHeight, geometry.outWidth, outChannels])
        let outputValues: Int = geometry.outHeight * geometry.outWidth * outChannels
        let perOutput: Int = weightShape[1] * weightShape[2] * (depthwise ? 1 : channels)
        context.planner.statistics.multiplyAccumulates += outputValues * perOutput
        let weightCount: Int = weightShape.reduce(1, *)
        context.planner.statistics.parameters += weightCount + outChannels
        var node = Node(kind: .convolution(weights: weights, bias: bias, depthwise: depthwise, geometry: geometry),
                        inputs: [input], output: context.output)
        node.first = try context.activation(options.activation)
        return node
    }
}
