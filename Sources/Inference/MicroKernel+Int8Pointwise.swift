import CInt8Convolution

/// The int8 block-projection family (`PointwiseConvolution.int8`), named
/// like `ConvolutionKernel`'s: operation (`qpw`: float pixels quantized to
/// u8 as they are read × 8-bit signed weights), tile (pixels × channels)
/// and instruction set. The cases are the family's list
/// (`MicroKernelFamily`), fastest first; `entry` gives each one's row. All
/// are C (`CInt8Convolution`'s `int8_pointwise.c`); they add the same
/// integers exactly and run the same float epilogue, so all give the same
/// bits (`Int8PointwiseTests`). Dispatched by `Kernels.int8Pointwise`.
package enum Int8PointwiseKernel: String, MicroKernelFamily {
    /// `vpdpbusd`, tiles of 8 pixels × 32 channels (AVX-512 VNNI).
    case qpw_u8s8_8x32_avx512vnni
    /// Both operands widened to 16 bits, `vpmaddwd`; tiles of 6 pixels × 8 channels.
    case qpw_u8s8_6x8_avx2
    /// One product at a time in plain C: the reference, and the kernel of CPUs without AVX2.
    case qpw_u8s8_1x1_scalar

    package static let family = "int8 block projection (PointwiseConvolution.int8)"

    /// How the interpreter runs a kernel of the family (layout: `int8_pointwise.h`).
    typealias Run = (UnsafePointer<facepipe_qpw_params>) -> Void

    /// The kernel's row of the list; every kernel takes every block projection.
    var entry: MicroKernelEntry<Void, Run> {
        switch self {
        case .qpw_u8s8_8x32_avx512vnni:
            .init(tile: "8 px × 32 ch", requiredFeatures: Self.needsVNNI, when: "every int8 block projection",
                  takes: { true },
                  run: { facepipe_qpw_u8s8_8x32_avx512vnni($0) })
        case .qpw_u8s8_6x8_avx2:
            .init(tile: "6 px × 8 ch", requiredFeatures: [.avx2, .fma], when: "every int8 block projection",
                  takes: { true },
                  run: { facepipe_qpw_u8s8_6x8_avx2($0) })
        case .qpw_u8s8_1x1_scalar:
            .init(tile: "1 px × 1 ch", when: "every int8 block projection",
                  takes: { true },
                  run: { facepipe_qpw_u8s8_1x1_scalar($0) })
        }
    }

    /// What the VNNI kernel needs.
    private static let needsVNNI: CPUFeatures = [.avx2, .fma, .avx512f, .avx512bw, .avx512vl, .avx512vnni]

    package var tile: String { entry.tile }
    package var requiredFeatures: CPUFeatures { entry.requiredFeatures }
    package var takesSteps: String { entry.when }
    package func takes(_ shape: Void) -> Bool { entry.takes(shape) }

    /// Runs the kernel on `parameters` (layout: `int8_pointwise.h`).
    package func run(_ parameters: UnsafePointer<facepipe_qpw_params>) { entry.run(parameters) }
}
