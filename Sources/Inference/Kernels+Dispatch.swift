import InferenceWide

/// The interpreter's dispatch: each windowed step runs the micro-kernel the
/// planner chose (`step.kernel`) through its row of the family's list
/// (`MicroKernelEntry.run`), and the functions those rows name.
extension Kernels {
    /// CONV_2D: runs `step.kernel` (`ConvolutionKernel`).
    static func convolution(_ step: Step.Convolution, arena: UnsafeMutablePointer<Float>, constants: UnsafePointer<Float>) {
        step.kernel.entry.run(step, arena, constants)
    }

    /// DEPTHWISE_CONV_2D: runs `step.kernel` (`DepthwiseKernel`).
    static func depthwise(_ step: Step.Depthwise, arena: UnsafeMutablePointer<Float>, constants: UnsafePointer<Float>) {
        step.kernel.entry.run(step, arena, constants)
    }

    /// MAX_POOL_2D: runs `step.kernel` (`PoolKernel`).
    static func maxPool(_ step: Step.MaxPool, arena: UnsafeMutablePointer<Float>) {
        step.kernel.entry.run(step, arena)
    }

    // MARK: - How the rows run

    /// `conv1x1_6x16_avx2`.
    static func conv1x1AVX2(_ step: Step.Convolution, arena: UnsafeMutablePointer<Float>, constants: UnsafePointer<Float>) {
        withEpilogue(step.epilogue, output: arena + step.output, arena: arena, constants: constants,
                     Conv1x1Run(step: step, arena: arena, constants: constants))
    }

    /// `conv1x1_8x32_avx512`.
    static func conv1x1AVX512(_ step: Step.Convolution, arena: UnsafeMutablePointer<Float>, constants: UnsafePointer<Float>) {
        let g = step.geometry, e = step.epilogue
        Conv1x1AVX512.run(input: arena + step.input, weights: constants + step.weights, output: arena + step.output,
                          pixels: g.outHeight * g.outWidth, inChannels: g.inChannels, outChannels: g.outChannels,
                          bias: constants + e.bias, residual: e.residual.map { UnsafePointer(arena + $0) },
                          residualChannels: e.residualChannels ?? g.outChannels,
                          first: e.first.avx512(constants), second: e.second.avx512(constants))
    }

    /// `conv_8x24_avx512_interior_avx2_border`.
    static func conv8x24AVX512(_ step: Step.Convolution, arena: UnsafeMutablePointer<Float>, constants: UnsafePointer<Float>) {
        let e = step.epilogue
        convRows(step, arena: arena, constants: constants,
                 interior: ConvInterior8x24AVX512(weights: constants + step.weights + ConvolutionKernel.avx512Offset(step.geometry),
                                                  bias: constants + e.bias, activation: e.first.avx512(constants),
                                                  output: arena + step.output))
    }

    /// `conv_8x16_avx512_interior_avx2_border` and `conv_8x32_avx512_interior_avx2_border`.
    static func conv8x16or32AVX512(_ step: Step.Convolution, arena: UnsafeMutablePointer<Float>, constants: UnsafePointer<Float>) {
        let e = step.epilogue
        convRows(step, arena: arena, constants: constants,
                 interior: ConvInterior8x16or32AVX512(weights: constants + step.weights + ConvolutionKernel.avx512Offset(step.geometry),
                                                      bias: constants + e.bias, activation: e.first.avx512(constants),
                                                      output: arena + step.output))
    }

    /// A windowed convolution whose interior pixels `interior` computes, borders one pixel at a time.
    static func convRows<I: ConvInterior>(_ step: Step.Convolution, arena: UnsafeMutablePointer<Float>, constants: UnsafePointer<Float>,
                                          interior: I) {
        withEpilogue(step.epilogue, output: arena + step.output, arena: arena, constants: constants,
                     ConvRun(step: step, arena: arena, constants: constants, interior: interior))
    }

    /// `dwconv3x3s1_4rows_avx512`: the table is the step's packed weights.
    static func depthwise3x3s1AVX512(_ step: Step.Depthwise, arena: UnsafeMutablePointer<Float>, constants: UnsafePointer<Float>) {
        depthwise3x3s1AVX512(step, arena: arena, constants: constants, table: constants + step.weights)
    }

    /// `dwconv3x3s2_8px_avx512`.
    static func depthwise3x3s2AVX512(_ step: Step.Depthwise, arena: UnsafeMutablePointer<Float>, constants: UnsafePointer<Float>) {
        let e = step.epilogue
        // The table's bias row follows the taps' 8-lane rows; its slopes row follows the bias row.
        let bias = constants + step.weights + DepthwiseKernel.eightLaneCount(step.geometry)
        let activation: AVX512Activation = if case .prelu = e.first {
            .prelu(bias + DepthwiseKernel.eightLaneRow(step.geometry))
        } else {
            e.first.avx512(constants)
        }
        depthwiseRows(step, arena: arena, constants: constants,
                      interior: DepthwiseInterior3x3s2AVX512(bias: bias, activation: activation, output: arena + step.output))
    }

    /// A depthwise convolution whose interior pixels `interior` computes, borders one pixel at a time.
    static func depthwiseRows<I: DepthwiseInterior>(_ step: Step.Depthwise, arena: UnsafeMutablePointer<Float>,
                                                    constants: UnsafePointer<Float>, interior: I) {
        withEpilogue(step.epilogue, output: arena + step.output, arena: arena, constants: constants,
                     DepthwiseRun(step: step, arena: arena, constants: constants, interior: interior))
    }

    private struct Conv1x1Run: EpilogueConsumer {
        let step: Step.Convolution, arena: UnsafeMutablePointer<Float>, constants: UnsafePointer<Float>
        func run<E: OutputEpilogue>(_ epilogue: E) {
            Kernels.conv1x1AVX2(step, arena: arena, constants: constants, epilogue: epilogue)
        }
    }

    private struct ConvRun<I: ConvInterior>: EpilogueConsumer {
        let step: Step.Convolution, arena: UnsafeMutablePointer<Float>, constants: UnsafePointer<Float>, interior: I
        func run<E: OutputEpilogue>(_ epilogue: E) {
            Kernels.conv(step, arena: arena, constants: constants, interior: interior, epilogue: epilogue)
        }
    }

    private struct DepthwiseRun<I: DepthwiseInterior>: EpilogueConsumer {
        let step: Step.Depthwise, arena: UnsafeMutablePointer<Float>, constants: UnsafePointer<Float>, interior: I
        func run<E: OutputEpilogue>(_ epilogue: E) {
            Kernels.depthwise(step, arena: arena, constants: constants, interior: interior, epilogue: epilogue)
        }
    }
}
