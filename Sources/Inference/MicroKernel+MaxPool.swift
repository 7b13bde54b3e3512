/// The fp32 MAX_POOL_2D family, named like `ConvolutionKernel`'s. The
/// cases are the family's list (`MicroKernelFamily`), fastest first;
/// `entry` gives each one's row. A maximum is exact, and both kernels take
/// it in the same order (`Kernels.maximum`), so they give the same bits
/// (`MaxPoolKernelTests`).
package enum PoolKernel: String, MicroKernelFamily {
    /// 2×2 stride 2: the whole windows of a row one pixel × 16 channels at a
    /// time (`MaxPool2x2s2AVX512`); windows cut by padding as `maxpool_1px_avx2`.
    case maxpool2x2s2_1px_avx512
    /// Any window: one pixel × 8 channels at a time.
    case maxpool_1px_avx2

    package static let family = "fp32 max pool (MAX_POOL_2D)"

    /// How the interpreter runs a kernel of the family.
    typealias Run = (Step.MaxPool, UnsafeMutablePointer<Float>) -> Void

    /// The kernel's row of the list.
    var entry: MicroKernelEntry<MicroKernelShape, Run> {
        switch self {
        case .maxpool2x2s2_1px_avx512:
            .init(tile: "1 px × 16 ch", requiredFeatures: .skylakeAVX512, when: "2×2, stride 2",
                  takes: { $0.isWindow(2, 2, stride: 2, 2) },
                  run: { Kernels.maxPool($0, arena: $1, wholeWindowRows: true) })
        case .maxpool_1px_avx2:
            .init(tile: "1 px × 8 ch", when: "any window",
                  takes: { _ in true },
                  run: { Kernels.maxPool($0, arena: $1, wholeWindowRows: false) })
        }
    }

    package var tile: String { entry.tile }
    package var requiredFeatures: CPUFeatures { entry.requiredFeatures }
    package var takesSteps: String { entry.when }
    package func takes(_ shape: MicroKernelShape) -> Bool { entry.takes(shape) }
}
