extension Step {
    /// Runs the step's kernel on `arena` (tensor offsets) and `constants` (weight offsets).
    @inline(__always)
    func run(arena: UnsafeMutablePointer<Float>, constants: UnsafePointer<Float>) {
        switch self {
        case let .convolution(s): Kernels.convolution(s, arena: arena, constants: constants)
        case let .int8Convolution(s): Kernels.int8Convolution(s, arena: arena, constants: constants)
        case let .int8Pointwise(s): Kernels.int8Pointwise(s, arena: arena, constants: constants)
        case let .depthwise(s): Kernels.depthwise(s, arena: arena, constants: constants)
        case let .maxPool(s): Kernels.maxPool(s, arena: arena)
        case let .add(s): Kernels.add(s, arena: arena, constants: constants)
        case let .activation(s): Kernels.activation(s, arena: arena, constants: constants)
        case let .pad(s): Kernels.pad(s, arena: arena)
        case let .copy(s): Kernels.copy(s, arena: arena)
        case let .concatenation(s): Kernels.concatenation(s, arena: arena)
        case let .resizeBilinear(s): Kernels.resizeBilinear(s, arena: arena)
        case let .resizeNearestNeighbor(s): Kernels.resizeNearestNeighbor(s, arena: arena)
        case let .depthToSpace(s): Kernels.depthToSpace(s, arena: arena)
        }
    }
}
