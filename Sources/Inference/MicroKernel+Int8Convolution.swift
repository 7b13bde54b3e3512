import CInt8Convolution

/// The int8 first-convolution family (`FirstConvolution.int8`), named like
/// `ConvolutionKernel`'s: operation (`qconv`, u8 pixels × 7-bit signed
/// weights), tile (pixels × channels per vector) and instruction set. The
/// cases are the family's list (`MicroKernelFamily`), fastest first;
/// `entry` gives each one's row. All are C (`CInt8Convolution`, one target
/// attribute per function) over one driver that splits rows into in-place
/// interiors and packed border windows. They add the same integers exactly
/// and run the same float epilogue, so all give the same bits
/// (`Int8ConvolutionTests`). Dispatched by `Kernels.int8Convolution`.
package enum Int8ConvolutionKernel: String, MicroKernelFamily {
    /// `vpdpbusd`, 16 channels per vector (AVX-512 VNNI).
    case qconv_u8s7_1x16_avx512vnni
    /// As the AVX2 kernel on 16 channels per vector (AVX-512BW).
    case qconv_u8s7_1x16_avx512bw
    /// `vpmaddubsw` + `vpmaddwd`, 8 channels per vector.
    case qconv_u8s7_1x8_avx2
    /// One tap at a time in plain C: the reference, and the kernel of CPUs without AVX2.
    case qconv_u8s7_1x8_scalar

    package static let family = "int8 first convolution (FirstConvolution.int8)"

    /// How the interpreter runs a kernel of the family (layout: `CInt8Convolution.h`).
    typealias Run = (UnsafePointer<facepipe_qconv_params>) -> Void

    /// The kernel's row of the list; every kernel takes every first convolution.
    var entry: MicroKernelEntry<Void, Run> {
        switch self {
        case .qconv_u8s7_1x16_avx512vnni:
            .init(tile: "1 px × 16 ch", requiredFeatures: Self.needsVNNI, when: "every int8 first convolution",
                  takes: { true },
                  run: { facepipe_qconv_u8s7_1x16_avx512vnni($0) })
        case .qconv_u8s7_1x16_avx512bw:
            .init(tile: "1 px × 16 ch", requiredFeatures: Self.needsBW, when: "every int8 first convolution",
                  takes: { true },
                  run: { facepipe_qconv_u8s7_1x16_avx512bw($0) })
        case .qconv_u8s7_1x8_avx2:
            .init(tile: "1 px × 8 ch", requiredFeatures: [.avx2, .fma], when: "every int8 first convolution",
                  takes: { true },
                  run: { facepipe_qconv_u8s7_1x8_avx2($0) })
        case .qconv_u8s7_1x8_scalar:
            .init(tile: "1 px × 8 ch", when: "every int8 first convolution",
                  takes: { true },
                  run: { facepipe_qconv_u8s7_1x8_scalar($0) })
        }
    }

    /// What the AVX-512 kernels need.
    private static let needsBW: CPUFeatures = [.avx2, .fma, .avx512f, .avx512bw, .avx512vl]
    private static let needsVNNI = needsBW.union(.avx512vnni)

    package var tile: String { entry.tile }
    package var requiredFeatures: CPUFeatures { entry.requiredFeatures }
    package var takesSteps: String { entry.when }
    package func takes(_ shape: Void) -> Bool { entry.takes(shape) }

    /// Runs the kernel on `parameters` (layout: `CInt8Convolution.h`).
    func run(_ parameters: UnsafePointer<facepipe_qconv_params>) { entry.run(parameters) }
}
