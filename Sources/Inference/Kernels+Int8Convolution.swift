import CInt8Convolution

extension Kernels {
    /// An `.int8` first convolution: runs the micro-kernel the planner chose
    /// (`step.kernel`) on the bytes at `step.input`.
    static func int8Convolution(_ step: Step.Int8Convolution, arena: UnsafeMutablePointer<Float>, constants: UnsafePointer<Float>) {
        let bytes = UnsafeRawPointer(arena + step.input).assumingMemoryBound(to: UInt8.self)
        if let outputStep = step.outputStep {
            step.kernel.convolve(bytes, geometry: step.geometry, inRowBytes: step.inRowBytes, table: constants + step.table,
                                 lower: step.lower, upper: step.upper, output: nil,
                                 outputBytes: (UnsafeMutableRawPointer(arena + step.output).assumingMemoryBound(to: UInt8.self), 1 / outputStep))
        } else {
            step.kernel.convolve(bytes, geometry: step.geometry, inRowBytes: step.inRowBytes, table: constants + step.table,
                                 lower: step.lower, upper: step.upper, output: arena + step.output)
        }
    }
}

extension Int8ConvolutionKernel {
    /// Runs the kernel on `input` (H rows of W×I bytes, `inRowBytes` apart
    /// (W×I when nil), followed by at least 4 readable bytes) with
    /// `Int8ConvolutionWeights`' block at `table`, writing `clamp(…, lower,
    /// upper)` floats to `output`, or with `outputBytes` bytes on a grid
    /// (`ActivationGrids`: the values times the inverse step, rounded and
    /// clamped to 0…255).
    func convolve(_ input: UnsafePointer<UInt8>, geometry g: WindowGeometry, inRowBytes: Int? = nil, table: UnsafePointer<Float>,
                  lower: Float, upper: Float, output: UnsafeMutablePointer<Float>?,
                  outputBytes: (bytes: UnsafeMutablePointer<UInt8>, inverseStep: Float)? = nil) {
        let layout = Int8ConvolutionWeights(g)
        precondition(layout.windowBytes <= Int8ConvolutionWeights.largestWindowBytes,
                     "Int8ConvolutionKernel: a \(g.kernelHeight)×\(g.kernelWidth)×\(g.inChannels) window is too large")
        var parameters = facepipe_qconv_params(
            input: input, in_height: Int32(g.inHeight), in_width: Int32(g.inWidth), in_channels: Int32(g.inChannels),
            in_row_bytes: Int32(inRowBytes ?? g.inWidth * g.inChannels),
            out_height: Int32(g.outHeight), out_width: Int32(g.outWidth), out_channels: Int32(g.outChannels),
            kernel_height: Int32(g.kernelHeight), kernel_width: Int32(g.kernelWidth),
            stride_height: Int32(g.strideHeight), stride_width: Int32(g.strideWidth),
            pad_top: Int32(g.padTop), pad_left: Int32(g.padLeft),
            weights: UnsafeRawPointer(table).assumingMemoryBound(to: Int8.self),
            weight_sums: UnsafeRawPointer(table + layout.sumsOffset).assumingMemoryBound(to: Int32.self),
            half_scales: table + layout.halfScalesOffset, bias: table + layout.biasOffset,
            lower: lower, upper: upper, output: output, output_bytes: outputBytes?.bytes, inverse_step: outputBytes?.inverseStep ?? 0)
        withUnsafePointer(to: &parameters) { run($0) }
    }
}
