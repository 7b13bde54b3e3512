/// What the planner reads of a windowed step to choose its micro-kernel
/// (`MicroKernelFamily.best(for:features:)`): window, stride, output
/// channels and whether an ADD (or a second activation) is fused. Never
/// the spatial size, so a model re-planned at another input size
/// (`Model.resized`) picks the same kernels and reuses the packed constants.
package struct MicroKernelShape: Sendable, Hashable, CustomStringConvertible {
    package var kernelHeight: Int, kernelWidth: Int
    package var strideHeight: Int, strideWidth: Int
    package var outChannels: Int
    /// A 1×1, stride-1, unpadded convolution: a GEMM over pixels.
    package var isPointwise: Bool
    /// A residual ADD or a second activation runs in the step's epilogue.
    package var fusedAdd: Bool

    package init(kernelHeight: Int, kernelWidth: Int, strideHeight: Int, strideWidth: Int, outChannels: Int,
                 isPointwise: Bool, fusedAdd: Bool) {
        self.kernelHeight = kernelHeight
        self.kernelWidth = kernelWidth
        self.strideHeight = strideHeight
        self.strideWidth = strideWidth
        self.outChannels = outChannels
        self.isPointwise = isPointwise
        self.fusedAdd = fusedAdd
    }

    init(_ g: WindowGeometry, fusedAdd: Bool) {
        self.init(kernelHeight: g.kernelHeight, kernelWidth: g.kernelWidth, strideHeight: g.strideHeight,
                  strideWidth: g.strideWidth, outChannels: g.outChannels, isPointwise: g.isPointwise, fusedAdd: fusedAdd)
    }

    /// A window of `height`×`width` at stride `strideHeight`×`strideWidth` (either may be `nil`: any).
    func isWindow(_ height: Int, _ width: Int, stride strideHeight: Int? = nil, _ strideWidth: Int? = nil) -> Bool {
        kernelHeight == height && kernelWidth == width
            && (strideHeight.map { $0 == self.strideHeight } ?? true) && (strideWidth.map { $0 == self.strideWidth } ?? true)
    }

    package var description: String {
        "\(kernelHeight)×\(kernelWidth)/\(strideHeight)×\(strideWidth) → \(outChannels)\(isPointwise ? " pointwise" : "")\(fusedAdd ? " +ADD" : "")"
    }
}
