import CInt8Convolution

extension Kernels {
    /// An `.int8` block projection: runs the micro-kernel the planner chose
    /// (`step.kernel`) on the floats at `step.input`.
    static func int8Pointwise(_ step: Step.Int8Pointwise, arena: UnsafeMutablePointer<Float>, constants: UnsafePointer<Float>) {
        let g = step.geometry, e = step.epilogue
        let layout = Int8PointwiseWeights(inChannels: g.inChannels, outChannels: g.outChannels)
        precondition(g.isPointwise && g.inChannels <= Int8PointwiseWeights.largestInputChannels,
                     "Int8PointwiseKernel: a \(g.kernelHeight)×\(g.kernelWidth)×\(g.inChannels) convolution is not a block projection")
        let table = constants + step.table
        func kind(_ activation: Activation) -> (Int32, UnsafePointer<Float>?) {
            switch activation {
            case .none: (Int32(FACEPIPE_QPW_NONE.rawValue), nil)
            case .relu: (Int32(FACEPIPE_QPW_RELU.rawValue), nil)
            case .relu6: (Int32(FACEPIPE_QPW_RELU6.rawValue), nil)
            case let .prelu(alpha): (Int32(FACEPIPE_QPW_PRELU.rawValue), constants + alpha)
            }
        }
        let (first, firstSlopes) = kind(e.first), (second, secondSlopes) = kind(e.second)
        var parameters = facepipe_qpw_params(
            input: UnsafePointer(arena + step.input), pixels: Int32(g.outHeight * g.outWidth),
            in_channels: Int32(g.inChannels), out_channels: Int32(g.outChannels),
            weights: UnsafeRawPointer(table).assumingMemoryBound(to: Int8.self),
            zero_sums: UnsafeRawPointer(table + layout.zeroSumsOffset).assumingMemoryBound(to: Int32.self),
            scales: table + layout.scalesOffset, bias: constants + e.bias,
            residual: e.residual.map { UnsafePointer(arena + $0) }, residual_channels: Int32(e.residualChannels ?? g.outChannels),
            first: first, second: second, first_slopes: firstSlopes, second_slopes: secondSlopes,
            output: arena + step.output)
        withUnsafePointer(to: &parameters) { step.kernel.run($0) }
    }
}
