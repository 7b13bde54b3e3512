import CInt8Convolution

/// The QS8 1×1 convolution family (`ActivationGrids`: bytes in on a
/// non-negative grid; bytes on a signed grid, or floats, out), named like
/// `Int8PointwiseKernel`'s: operation, tile (pixels × channels) and
/// instruction set. The cases are the family's list (`MicroKernelFamily`),
/// fastest first; `entry` gives each one's row. All are C
/// (`CInt8Convolution`'s `qs8_pointwise.c`, contract in `qs8.h`); they add
/// the same integers exactly and run the same float epilogue, so all write
/// the same bytes or float bits (`QS8KernelTests`). Dispatched by
/// `Kernels.qs8Pointwise`.
package enum QS8PointwiseKernel: String, MicroKernelFamily {
    /// `vpdpbusd` on the bytes as they are; tiles of 4 pixels × 64 channels
    /// (8 × 32, 8 × 16, 8 × 8 for the last ones), bytes out four vectors to a store.
    case qs8_pw_4x64_avx512vnni
    /// Bytes widened to 16 bits, `vpmaddwd`; tiles of 6 pixels × 8 channels.
    case qs8_pw_6x8_avx2
    /// One product at a time in plain C: the reference, and the kernel of CPUs without AVX2.
    case qs8_pw_1x1_scalar

    package static let family = "QS8 1×1 convolution (CONV_2D 1×1 on bytes)"

    /// How the interpreter runs a kernel of the family (layout: `qs8.h`).
    typealias Run = (UnsafePointer<facepipe_qs8_pw_params>) -> Void

    /// The kernel's row of the list; every kernel takes every QS8 1×1 step
    /// (up to `FACEPIPE_QS8_PW_MAX_IN_CHANNELS` input channels).
    var entry: MicroKernelEntry<Void, Run> {
        switch self {
        case .qs8_pw_4x64_avx512vnni:
            .init(tile: "4 px × 64 ch", requiredFeatures: [.avx2, .fma, .avx512f, .avx512bw, .avx512vl, .avx512vnni],
                  when: "every QS8 1×1 convolution", takes: { true },
                  run: { facepipe_qs8_pw_4x64_avx512vnni($0) })
        case .qs8_pw_6x8_avx2:
            .init(tile: "6 px × 8 ch", requiredFeatures: [.avx2, .fma], when: "every QS8 1×1 convolution", takes: { true },
                  run: { facepipe_qs8_pw_6x8_avx2($0) })
        case .qs8_pw_1x1_scalar:
            .init(tile: "1 px × 1 ch", when: "every QS8 1×1 convolution", takes: { true },
                  run: { facepipe_qs8_pw_1x1_scalar($0) })
        }
    }

    package var tile: String { entry.tile }
    package var requiredFeatures: CPUFeatures { entry.requiredFeatures }
    package var takesSteps: String { entry.when }
    package func takes(_ shape: Void) -> Bool { entry.takes(shape) }

    /// Runs the kernel on `parameters` (layout: `qs8.h`).
    package func run(_ parameters: UnsafePointer<facepipe_qs8_pw_params>) { entry.run(parameters) }
}
