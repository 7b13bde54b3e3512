import CInt8Convolution

/// The QS8 steps (`ActivationGrids`, `qs8.h`): byte tensors live in the
/// float arena, four bytes to a float's room.
extension Kernels {
    /// A 1×1 convolution on bytes: runs the micro-kernel the planner chose (`step.kernel`).
    static func qs8Pointwise(_ step: Step.QS8Pointwise, arena: UnsafeMutablePointer<Float>, constants: UnsafePointer<Float>) {
        let g = step.geometry
        let layout = QS8PointwiseWeights(inChannels: g.inChannels, outChannels: g.outChannels)
        let table = constants + step.table
        var parameters = facepipe_qs8_pw_params(
            input: bytes(arena + step.input), pixels: Int32(g.outHeight * g.outWidth),
            in_channels: Int32(g.inChannels), out_channels: Int32(g.outChannels),
            weights: UnsafeRawPointer(table).assumingMemoryBound(to: Int8.self),
            multipliers: table + layout.multipliersOffset, bias: table + layout.biasOffset,
            output_bytes: step.floatOutput ? nil : mutableBytes(arena + step.output),
            output_floats: step.floatOutput ? arena + step.output : nil)
        withUnsafePointer(to: &parameters) { step.kernel.run($0) }
    }

    /// A 3×3 depthwise convolution on bytes: the window's rows, its top padding, the kernel the planner chose.
    static func qs8Depthwise(_ step: Step.QS8Depthwise, arena: UnsafeMutablePointer<Float>, constants: UnsafePointer<Float>) {
        let g = step.geometry
        let layout = QS8DepthwiseWeights(channels: g.outChannels)
        let table = constants + step.table
        var parameters = facepipe_qs8_dw_params(
            input: bytes(arena + step.input), in_height: Int32(g.inHeight), out_height: Int32(g.outHeight),
            width: Int32(g.outWidth), channels: Int32(g.outChannels), pad_top: Int32(g.padTop),
            taps: UnsafeRawPointer(table).assumingMemoryBound(to: Int8.self),
            multipliers: table + layout.multipliersOffset, bias: table + layout.biasOffset,
            output: mutableBytes(arena + step.output))
        withUnsafePointer(to: &parameters) { step.kernel.run($0) }
    }

    static func qs8MaxPool(_ step: Step.QS8MaxPool, arena: UnsafeMutablePointer<Float>) {
        let g = step.geometry
        QS8Elementwise.maxPool2x2(bytes(arena + step.input), inWidth: g.inWidth, outHeight: g.outHeight, outWidth: g.outWidth,
                                  channels: g.outChannels, output: mutableBytes(arena + step.output))
    }

    static func qs8Add(_ step: Step.QS8Add, arena: UnsafeMutablePointer<Float>) {
        QS8Elementwise.add(bytes(arena + step.lhs), bytes(arena + step.rhs), lhsScale: step.lhsScale, rhsScale: step.rhsScale,
                           output: mutableBytes(arena + step.output), count: step.count)
    }

    static func qs8Quantize(_ step: Step.QS8Quantize, arena: UnsafeMutablePointer<Float>) {
        QS8Elementwise.quantize(UnsafePointer(arena + step.input), inverseStep: step.inverseStep,
                                output: mutableBytes(arena + step.output), count: step.count)
    }

    /// The bytes of the tensor at `at`.
    private static func bytes(_ at: UnsafeMutablePointer<Float>) -> UnsafePointer<UInt8> {
        UnsafePointer(mutableBytes(at))
    }

    private static func mutableBytes(_ at: UnsafeMutablePointer<Float>) -> UnsafeMutablePointer<UInt8> {
        UnsafeMutableRawPointer(at).assumingMemoryBound(to: UInt8.self)
    }
}
