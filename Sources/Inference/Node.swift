/// An activation before its constants are placed in the pool.
enum PendingActivation: Equatable {
    case none, relu, relu6
    case prelu(alpha: Int)
}

/// An operator after validation and shape inference, before fusion and layout.
struct Node {
    enum Kind {
        case convolution(weights: Int, bias: Int?, depthwise: Bool, geometry: WindowGeometry)
        case maxPool(WindowGeometry)
        case add
        case activation
        case pad(before: [Int])
        case copy
        case concatenation(axis: Int)
        case resizeBilinear(alignCorners: Bool, halfPixelCenters: Bool)
        case resizeNearestNeighbor(alignCorners: Bool, halfPixelCenters: Bool)
        case depthToSpace(block: Int)
        /// Floats rounded onto the output's grid (`ActivationGrids`), after a step that cannot write bytes.
        case quantize
    }

    var kind: Kind
    /// Arena tensors read (excluding a fused residual).
    var inputs: [Int]
    var output: Int
    var first: PendingActivation = .none
    var residual: Int?
    /// Channels per pixel of `residual` when a channel PAD was folded into
    /// it (fewer than the output's; the rest add zero). nil: the output's.
    var residualChannels: Int?
    var second: PendingActivation = .none
    var removed = false
}
