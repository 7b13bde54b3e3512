import TFLite

extension Operators {
    /// RESIZE_NEAREST_NEIGHBOR to at most 65536×65536.
    enum ResizeNearestNeighbor: OperatorPreparation {
        static let codes: [BuiltinOperator] = [.resizeNearestNeighbor]

        /// The largest output side.
        static let largestSide = 1 << 16

        static func prepare(_ context: inout OperatorContext) throws -> Node? {
            guard case let .resizeNearestNeighbor(alignCorners, halfPixel) = context.op.options else { throw InferenceError(.missingOptions) }
            return try ResizeOperands.node(&context, kind: .resizeNearestNeighbor(alignCorners: alignCorners, halfPixelCenters: halfPixel),
                                           alignCorners: alignCorners, halfPixelCenters: halfPixel) { height, width in
                height <= largestSide && width <= largestSide
            }
        }
    }
}
