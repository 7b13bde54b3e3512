import TFLite

extension Operators {
    /// RESIZE_BILINEAR (not both align corners and half-pixel centres).
    enum ResizeBilinear: OperatorPreparation {
        static let codes: [BuiltinOperator] = [.resizeBilinear]

        static func prepare(_ context: inout OperatorContext) throws -> Node? {
            guard case let .resizeBilinear(alignCorners, halfPixel) = context.op.options else { throw InferenceError(.missingOptions) }
            return try ResizeOperands.node(&context, kind: .resizeBilinear(alignCorners: alignCorners, halfPixelCenters: halfPixel),
                                           alignCorners: alignCorners, halfPixelCenters: halfPixel) { _, _ in !(alignCorners && halfPixel) }
        }
    }
}
