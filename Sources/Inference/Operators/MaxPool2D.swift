import TFLite

extension Operators {
    /// MAX_POOL_2D over a `[1, H, W, C]` input, without a fused activation.
    enum MaxPool2D: OperatorPreparation {
        static let codes: [BuiltinOperator] = [.maxPool2D]

        static func prepare(_ context: inout OperatorContext) throws -> Node? {
            guard case let .pool(options) = context.op.options else { throw InferenceError(.missingOptions) }
            let input = try context.activationInput(0)
            let (h, w, c) = try context.image(input)
            guard options.strideWidth >= 1, options.strideHeight >= 1, options.filterWidth >= 1, options.filterHeight >= 1 else {
                throw InferenceError(.poolWindow(filterHeight: options.filterHeight, filterWidth: options.filterWidth,
                                                 strideHeight: options.strideHeight, strideWidth: options.strideWidth))
            }
            guard options.activation == .none else { throw InferenceError(.fusedActivation(options.activation)) }
            let geometry = try WindowGeometry(inHeight: h, inWidth: w, channels: c, outChannels: c,
                                              kernelHeight: options.filterHeight, kernelWidth: options.filterWidth,
                                              strideHeight: options.strideHeight, strideWidth: options.strideWidth, padding: options.padding)
            try context.setFloat32Output([1, geometry.outHeight, geometry.outWidth, c])
            return Node(kind: .maxPool(geometry), inputs: [input], output: context.output)
        }
    }
}
