import CInt8Convolution

/// The micro-kernels of an `.int8` block projection
/// (`PointwiseConvolution`), named like `ConvolutionKernel`'s: operation
/// (`qpw`: float pixels quantized to u8 as they are read × 8-bit signed
/// weights), tile (pixels × channels) and instruction set. All are C
/// (`CInt8Convolution`'s `int8_pointwise.c`); they add the same integers
/// exactly and run the same float epilogue, so all give the same bits.
/// Chosen by `Planner.int8PointwiseKernel`, dispatched by `Kernels.int8Pointwise`.
package enum Int8PointwiseKernel: String, Sendable, CaseIterable {
    /// One product at a time in plain C: the reference, and the kernel of CPUs without AVX2.
    case qpw_u8s8_1x1_scalar
    /// Both operands widened to 16 bits, `vpmaddwd`; tiles of 6 pixels × 8 channels.
    case qpw_u8s8_6x8_avx2
    /// `vpdpbusd`, tiles of 8 pixels × 32 channels (AVX-512 VNNI).
    case qpw_u8s8_8x32_avx512vnni

    /// What the CPU needs to run the kernel.
    package var requiredFeatures: CPUFeatures {
        switch self {
        case .qpw_u8s8_1x1_scalar: []
        case .qpw_u8s8_6x8_avx2: [.avx2, .fma]
        case .qpw_u8s8_8x32_avx512vnni: [.avx2, .fma, .avx512f, .avx512bw, .avx512vl, .avx512vnni]
        }
    }

    /// The fastest kernel `features` run within `kernels`: `.avx512` takes
    /// VNNI where the CPU has it, AVX2 otherwise.
    package static func best(_ kernels: KernelSet, features: CPUFeatures) -> Int8PointwiseKernel {
        let candidates: [Int8PointwiseKernel] = kernels == .avx512
            ? [.qpw_u8s8_8x32_avx512vnni, .qpw_u8s8_6x8_avx2] : [.qpw_u8s8_6x8_avx2]
        return candidates.first { features.isSuperset(of: $0.requiredFeatures) } ?? .qpw_u8s8_1x1_scalar
    }

    /// Runs the kernel on `parameters` (layout: `int8_pointwise.h`).
    package func run(_ parameters: UnsafePointer<facepipe_qpw_params>) {
        switch self {
        case .qpw_u8s8_1x1_scalar: facepipe_qpw_u8s8_1x1_scalar(parameters)
        case .qpw_u8s8_6x8_avx2: facepipe_qpw_u8s8_6x8_avx2(parameters)
        case .qpw_u8s8_8x32_avx512vnni: facepipe_qpw_u8s8_8x32_avx512vnni(parameters)
        }
    }
}
