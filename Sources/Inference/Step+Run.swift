extension Step {
    /// Runs the step's kernel on `arena` (tensor offsets) and `constants` (weight offsets).
    @inline(__always)
    func run(arena: UnsafeMutablePointer<Float>, constants: UnsafePointer<Float>) {
        switch self {
        case let .convolution(s): Kernels.convolution(s, arena: arena, constants: constants)
        case let .int8Convolution(s): Kernels.int8Convolution(s, arena: arena, constants: constants)
        case let .int8Pointwise(s): Kernels.int8Pointwise(s, arena: arena, constants: constants)
        case let .depthwise(s): Kernels.depthwise(s, arena: arena, constants: constants)
        case let .qs8Pointwise(s): Kernels.qs8Pointwise(s, arena: arena, constants: constants)
        case let .qs8Depthwise(s): Kernels.qs8Depthwise(s, arena: arena, constants: constants)
        case let .qs8MaxPool(s): Kernels.qs8MaxPool(s, arena: arena)
        case let .qs8Add(s): Kernels.qs8Add(s, arena: arena)
        case let .qs8Quantize(s): Kernels.qs8Quantize(s, arena: arena)
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

extension Step {
    /// Where a whole-tensor step writes its output, when that is floats of
    /// a window step, an ADD or an activation: arena offset and count
    /// (nil for bytes and other steps).
    var floatOutput: (offset: Int, count: Int)? {
        func window(_ g: WindowGeometry, _ output: Int) -> (Int, Int) { (output, g.outHeight * g.outWidth * g.outChannels) }
        switch self {
        case let .convolution(s): return window(s.geometry, s.output)
        case let .int8Convolution(s) where s.outputStep == nil: return window(s.geometry, s.output)
        case let .int8Pointwise(s): return window(s.geometry, s.output)
        case let .depthwise(s): return window(s.geometry, s.output)
        case let .maxPool(s): return window(s.geometry, s.output)
        case let .qs8Pointwise(s) where s.floatOutput: return window(s.geometry, s.output)
        case let .add(s): return (s.output, s.count)
        case let .activation(s): return (s.output, s.count)
        case let .resizeNearestNeighbor(s) where !s.bytes: return (s.output, s.outHeight * s.outWidth * s.channels)
        default: return nil
        }
    }
}
