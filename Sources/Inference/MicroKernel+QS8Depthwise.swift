import CInt8Convolution

/// The QS8 3×3 depthwise family (stride 1, one pixel of zero padding left
/// and right, ReLU: bytes on a signed grid in, bytes on a non-negative grid
/// out; `ActivationGrids`), named like `DepthwiseKernel`'s. The planner
/// asks by channel count (the shape). The cases are the family's list
/// (`MicroKernelFamily`), fastest first; `entry` gives each one's row. All
/// are C (`CInt8Convolution`'s `qs8_depthwise.c`, contract in `qs8.h`);
/// they compute each output's exact integer sum and the same float
/// epilogue, so all write the same bytes (`QS8KernelTests`). Dispatched by
/// `Kernels.qs8Depthwise`.
package enum QS8DepthwiseKernel: String, MicroKernelFamily {
    /// Each output pixel's three taps of a row gathered by one `vpermb`, one
    /// `vpdpbusd` a row of taps; blocks of 4 rows × 4 pixels on 16-channel
    /// planes (a 16-channel map's interior read in place, other pixels from
    /// strips copied with their padding).
    case qs8_dw3x3_4x4_avx512vbmi
    /// Bytes widened to floats and summed with FMAs, exact (integers under
    /// 2²⁴); one row × 8 pixels × 8 channels, borders one pixel at a time.
    case qs8_dw3x3_8px_avx2
    /// One tap at a time in plain C: the reference, and the kernel of CPUs without AVX2.
    case qs8_dw3x3_scalar

    package static let family = "QS8 3×3 depthwise convolution (DEPTHWISE_CONV_2D on bytes)"

    /// How the interpreter runs a kernel of the family (layout: `qs8.h`).
    typealias Run = (UnsafePointer<facepipe_qs8_dw_params>) -> Void

    /// The kernel's row of the list, by channel count.
    var entry: MicroKernelEntry<Int, Run> {
        switch self {
        case .qs8_dw3x3_4x4_avx512vbmi:
            .init(tile: "4 rows × 4 px × 16 ch", requiredFeatures: [.avx2, .fma, .avx512f, .avx512bw, .avx512vl, .avx512vnni, .avx512vbmi],
                  when: "channels a multiple of 16, at most 512", takes: { $0 % 16 == 0 && $0 <= Self.largestPlanarChannels },
                  run: { facepipe_qs8_dw3x3_4x4_avx512vbmi($0) })
        case .qs8_dw3x3_8px_avx2:
            .init(tile: "8 px × 8 ch", requiredFeatures: [.avx2, .fma], when: "channels a multiple of 4", takes: { $0 % 4 == 0 },
                  run: { facepipe_qs8_dw3x3_8px_avx2($0) })
        case .qs8_dw3x3_scalar:
            .init(tile: "1 px × 1 ch", when: "every QS8 3×3 depthwise convolution", takes: { _ in true },
                  run: { facepipe_qs8_dw3x3_scalar($0) })
        }
    }

    /// The most channels of the AVX-512 kernel (32 planes of 16; more run the AVX2 kernel inside it).
    static let largestPlanarChannels = 512

    package var tile: String { entry.tile }
    package var requiredFeatures: CPUFeatures { entry.requiredFeatures }
    package var takesSteps: String { entry.when }
    package func takes(_ channels: Int) -> Bool { entry.takes(channels) }

    /// Runs the kernel on `parameters` (layout: `qs8.h`).
    package func run(_ parameters: UnsafePointer<facepipe_qs8_dw_params>) { entry.run(parameters) }
}
