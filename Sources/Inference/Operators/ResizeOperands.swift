import TFLite

/// What RESIZE_BILINEAR and RESIZE_NEAREST_NEIGHBOR check alike: a
/// computed `[1, H, W, C]` input and a constant INT32 size of two positive
/// sides; in a resized plan, the declared integral scale factor kept.
enum ResizeOperands {
    /// Sets the output's shape and returns the node of `kind`.
    /// - Parameter sizeIsSupported: the operator's own check of the size and its options.
    static func node(_ context: inout OperatorContext, kind: Node.Kind, alignCorners: Bool, halfPixelCenters: Bool,
                     sizeIsSupported: (_ height: Int, _ width: Int) -> Bool) throws -> Node {
        let input = try context.activationInput(0)
        let size = try context.int32s(try context.operand(1))
        let (h, w, c) = try context.image(input)
        guard size.count == 2, size[0] >= 1, size[1] >= 1, sizeIsSupported(size[0], size[1]) else {
            throw InferenceError(.resizeSize(size, alignCorners: alignCorners, halfPixelCenters: halfPixelCenters))
        }
        var outSize = (height: size[0], width: size[1])
        if context.planner.resized {
            // Keep the declared (integral) scale factor rather than the declared size.
            let declaredIn = context.declared(input).shape
            guard declaredIn.count == 4, declaredIn[1] >= 1, declaredIn[2] >= 1,
                  size[0] % declaredIn[1] == 0, size[1] % declaredIn[2] == 0 else {
                throw InferenceError(.resizeNotIntegral(context.tensor(input), declared: declaredIn, size: size))
            }
            outSize = (h * (size[0] / declaredIn[1]), w * (size[1] / declaredIn[2]))
        }
        try context.setFloat32Output([1, outSize.height, outSize.width, c])
        return Node(kind: kind, inputs: [input], output: context.output)
    }
}
