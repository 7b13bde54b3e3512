import InferenceWide

/// The kernel registry: for each family, one function that picks the
/// micro-kernel a step runs from the plan's `KernelSet` and the step's
/// shape and epilogue. Only window size, stride, channel counts and the
/// fused operations decide, never the spatial size, so a model re-planned
/// at another input size (`Model.resized`) picks the same kernels and reuses
/// the packed constants.
extension Planner {
    /// A 1×1 stride-1 convolution's kernel. At most 8 output channels (a
    /// detector's score heads: 2 or 6) take the 8-lane tiles even in the
    /// AVX-512 set: a 32-channel tile would compute mostly padding.
    func conv1x1Kernel(outChannels: Int) -> ConvolutionKernel {
        kernels == .avx512 && outChannels > 8 ? .conv1x1_8x32_avx512 : .conv1x1_6x16_avx2
    }

    /// Any other convolution's kernel. The AVX-512 interiors apply the bias
    /// and the first activation themselves, so they take no fused ADD.
    func convKernel(_ g: WindowGeometry, fusedAdd: Bool) -> ConvolutionKernel {
        let blocks = (g.outChannels + 7) / 8
        if kernels == .avx512 && !fusedAdd {
            switch g.outChannels {
            case ConvInterior24AVX512.outputChannels: return .conv_8x24_avx512_interior_avx2_border
            case 16: return .conv_8x16_avx512_interior_avx2_border
            case 32: return .conv_8x32_avx512_interior_avx2_border
            default: break
            }
        }
        return blocks == 3 ? .conv_4x24_avx2 : .conv_4x16_avx2
    }

    /// A CONV_2D's kernel: `conv1x1Kernel` or `convKernel`.
    func convolutionKernel(_ g: WindowGeometry, fusedAdd: Bool) -> ConvolutionKernel {
        g.isPointwise ? conv1x1Kernel(outChannels: g.outChannels) : convKernel(g, fusedAdd: fusedAdd)
    }

    /// A DEPTHWISE_CONV_2D's kernel. The AVX-512 interiors apply the bias and
    /// the first activation themselves, so they take no fused ADD.
    func depthwiseKernel(_ g: WindowGeometry, fusedAdd: Bool) -> DepthwiseKernel {
        switch (g.kernelHeight, g.kernelWidth, g.strideHeight, g.strideWidth) {
        case (3, 3, 1, 1) where kernels == .avx512 && !fusedAdd: .dwconv3x3s1_4rows_avx512
        case (3, 3, _, 1): .dwconv3x3s1_8px_avx2
        case (3, 3, _, 2) where kernels == .avx512 && !fusedAdd: .dwconv3x3s2_8px_avx512
        case (3, 3, _, 2): .dwconv3x3s2_4px_avx2
        case (3, 3, _, _): .dwconv3x3_4px_avx2
        case (5, 5, _, _): .dwconv5x5_4px_avx2
        default: .dwconv_1px_avx2
        }
    }

    /// A MAX_POOL_2D's kernel.
    func maxPoolKernel(_ g: WindowGeometry) -> PoolKernel {
        switch (g.kernelHeight, g.kernelWidth, g.strideHeight, g.strideWidth) {
        case (2, 2, 2, 2) where kernels == .avx512: .maxpool2x2s2_1px_avx512
        default: .maxpool_1px_avx2
        }
    }
}
