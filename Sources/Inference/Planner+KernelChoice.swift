/// The planner's kernel choice: for each step, the first kernel of its
/// family's list (`MicroKernelFamily.best(for:features:)`) that the plan's
/// `KernelSet` allows on this CPU and that takes the step's shape
/// (`MicroKernelShape`: window, stride, channel counts and fused
/// operations, never the spatial size, so a model re-planned at another
/// input size picks the same kernels and reuses the packed constants).
extension Planner {
    /// What the plan's kernel set may ask of this CPU (`KernelSet.features(on:)`).
    var kernelFeatures: CPUFeatures { kernels.features(on: .current) }

    /// A fp32 CONV_2D's kernel.
    func convolutionKernel(_ g: WindowGeometry, fusedAdd: Bool) -> ConvolutionKernel {
        .best(for: MicroKernelShape(g, fusedAdd: fusedAdd), features: kernelFeatures)
    }

    /// A DEPTHWISE_CONV_2D's kernel.
    func depthwiseKernel(_ g: WindowGeometry, fusedAdd: Bool) -> DepthwiseKernel {
        .best(for: MicroKernelShape(g, fusedAdd: fusedAdd), features: kernelFeatures)
    }

    /// A MAX_POOL_2D's kernel.
    func maxPoolKernel(_ g: WindowGeometry) -> PoolKernel {
        .best(for: MicroKernelShape(g, fusedAdd: false), features: kernelFeatures)
    }

    /// The kernel of an int8 first convolution.
    func int8Kernel() -> Int8ConvolutionKernel { .best(features: kernelFeatures) }

    /// The kernel of an int8 block projection.
    func int8PointwiseKernel() -> Int8PointwiseKernel { .best(features: kernelFeatures) }
}
