import InferenceWide

extension Kernels {
    /// CONV_2D: runs the micro-kernel the planner chose (`step.kernel`).
    static func convolution(_ step: Step.Convolution, arena: UnsafeMutablePointer<Float>, constants: UnsafePointer<Float>) {
        let g = step.geometry, e = step.epilogue
        let output = arena + step.output
        func rows<I: ConvInterior>(_ interior: I) {
            withEpilogue(e, output: output, arena: arena, constants: constants,
                         ConvRun(step: step, arena: arena, constants: constants, interior: interior))
        }
        switch step.kernel {
        case .conv1x1_6x16_avx2:
            withEpilogue(e, output: output, arena: arena, constants: constants, Conv1x1Run(step: step, arena: arena, constants: constants))
        case .conv1x1_8x32_avx512:
            Conv1x1AVX512.run(input: arena + step.input, weights: constants + step.weights, output: output,
                              pixels: g.outHeight * g.outWidth, inChannels: g.inChannels, outChannels: g.outChannels,
                              bias: constants + e.bias, residual: e.residual.map { UnsafePointer(arena + $0) },
                              residualChannels: e.residualChannels ?? g.outChannels,
                              first: e.first.avx512(constants), second: e.second.avx512(constants))
        case .conv_4x16_avx2:
            rows(ConvInterior4x16AVX2())
        case .conv_4x24_avx2:
            rows(ConvInterior4x24AVX2())
        case .conv_8x24_avx512_interior_avx2_border:
            rows(ConvInterior8x24AVX512(weights: constants + step.weights + ConvolutionKernel.avx512Offset(g),
                                        bias: constants + e.bias, activation: e.first.avx512(constants), output: output))
        case .conv_8x16_avx512_interior_avx2_border, .conv_8x32_avx512_interior_avx2_border:
            rows(ConvInterior8x16or32AVX512(weights: constants + step.weights + ConvolutionKernel.avx512Offset(g),
                                            bias: constants + e.bias, activation: e.first.avx512(constants), output: output))
        }
    }

    /// DEPTHWISE_CONV_2D: runs the micro-kernel the planner chose (`step.kernel`).
    static func depthwise(_ step: Step.Depthwise, arena: UnsafeMutablePointer<Float>, constants: UnsafePointer<Float>) {
        let e = step.epilogue, output = arena + step.output
        func rows<I: DepthwiseInterior>(_ interior: I) {
            withEpilogue(e, output: output, arena: arena, constants: constants,
                         DepthwiseRun(step: step, arena: arena, constants: constants, interior: interior))
        }
        switch step.kernel {
        case .dwconv3x3s1_4rows_avx512:
            depthwise3x3s1AVX512(step, arena: arena, constants: constants, table: constants + step.weights)
        case .dwconv3x3s1_8px_avx2:
            rows(DepthwiseInterior3x3s1AVX2())
        case .dwconv3x3s2_4px_avx2:
            rows(DepthwiseInterior3x3s2AVX2())
        case .dwconv3x3s2_8px_avx512:
            // The table's bias row follows the taps' 8-lane rows; its slopes row follows the bias row.
            let bias = constants + step.weights + DepthwiseKernel.eightLaneCount(step.geometry)
            let activation: AVX512Activation = if case .prelu = e.first {
                .prelu(bias + DepthwiseKernel.eightLaneRow(step.geometry))
            } else {
                e.first.avx512(constants)
            }
            rows(DepthwiseInterior3x3s2AVX512(bias: bias, activation: activation, output: output))
        case .dwconv3x3_4px_avx2:
            rows(DepthwiseInterior3x3AVX2())
        case .dwconv5x5_4px_avx2:
            rows(DepthwiseInterior5x5AVX2())
        case .dwconv_1px_avx2:
            rows(DepthwiseInterior1pxAVX2())
        }
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
