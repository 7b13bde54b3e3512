import CInt8Convolution

/// The micro-kernels of an `.int8` first convolution (`FirstConvolution`),
/// named like `ConvolutionKernel`'s: operation (`qconv`, u8 pixels × 7-bit
/// signed weights), tile (pixels × channels per vector) and instruction set.
/// All are C (`CInt8Convolution`, one target attribute per function) over
/// one driver that splits rows into in-place interiors and packed border
/// windows. They add the same integers exactly and run the same float
/// epilogue, so all give the same bits. Chosen by `Planner.int8Kernel`,
/// dispatched by `Kernels.int8Convolution`.
package enum Int8ConvolutionKernel: String, Sendable, CaseIterable {
    /// One tap at a time in plain C: the reference, and the kernel of CPUs without AVX2.
    case qconv_u8s7_1x8_scalar
    /// `vpmaddubsw` + `vpmaddwd`, 8 channels per vector.
    case qconv_u8s7_1x8_avx2
    /// As the AVX2 kernel on 16 channels per vector (AVX-512BW).
    case qconv_u8s7_1x16_avx512bw
    /// `vpdpbusd`, 16 channels per vector (AVX-512 VNNI).
    case qconv_u8s7_1x16_avx512vnni

    /// What the CPU needs to run the kernel.
    package var requiredFeatures: CPUFeatures {
        switch self {
        case .qconv_u8s7_1x8_scalar: []
        case .qconv_u8s7_1x8_avx2: [.avx2, .fma]
        case .qconv_u8s7_1x16_avx512bw: [.avx2, .fma, .avx512f, .avx512bw, .avx512vl]
        case .qconv_u8s7_1x16_avx512vnni: [.avx2, .fma, .avx512f, .avx512bw, .avx512vl, .avx512vnni]
        }
    }

    /// The fastest kernel `features` run within `kernels`: `.avx512` takes
    /// VNNI where the CPU has it and AVX-512BW otherwise.
    package static func best(_ kernels: KernelSet, features: CPUFeatures) -> Int8ConvolutionKernel {
        let candidates: [Int8ConvolutionKernel] = kernels == .avx512
            ? [.qconv_u8s7_1x16_avx512vnni, .qconv_u8s7_1x16_avx512bw, .qconv_u8s7_1x8_avx2]
            : [.qconv_u8s7_1x8_avx2]
        return candidates.first { features.isSuperset(of: $0.requiredFeatures) } ?? .qconv_u8s7_1x8_scalar
    }

    /// Runs the kernel on `parameters` (layout: `CInt8Convolution.h`).
    func run(_ parameters: UnsafePointer<facepipe_qconv_params>) {
        switch self {
        case .qconv_u8s7_1x8_scalar: facepipe_qconv_u8s7_1x8_scalar(parameters)
        case .qconv_u8s7_1x8_avx2: facepipe_qconv_u8s7_1x8_avx2(parameters)
        case .qconv_u8s7_1x16_avx512bw: facepipe_qconv_u8s7_1x16_avx512bw(parameters)
        case .qconv_u8s7_1x16_avx512vnni: facepipe_qconv_u8s7_1x16_avx512vnni(parameters)
        }
    }
}
