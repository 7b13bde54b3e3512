import CInt8Convolution

/// The QS8 byte maps that need no kernel family (`qs8.h`): 2×2 max pool,
/// the ADD of two non-negative grids onto a third, floats onto a grid.
/// Each has a scalar, an AVX2 and an AVX-512 variant that write the same
/// bytes (a max is exact; the others run one float epilogue lane by lane),
/// so the variant follows the CPU (`Variant.best`) and cannot change a
/// result (`QS8KernelTests`).
package enum QS8Elementwise {
    /// Which code runs.
    package enum Variant: String, CaseIterable, Sendable {
        /// AVX-512 F, BW and VL.
        case avx512
        case avx2
        case scalar

        /// What the CPU needs to run it.
        package var requiredFeatures: CPUFeatures {
            switch self {
            case .avx512: [.avx2, .fma, .avx512f, .avx512bw, .avx512vl]
            case .avx2: [.avx2, .fma]
            case .scalar: []
            }
        }

        /// The first variant this CPU runs.
        package static let best = allCases.first { CPUFeatures.current.isSuperset(of: $0.requiredFeatures) }!
    }

    /// 2×2 max pool, stride 2, VALID: output (r, x) is the largest of input
    /// rows 2r, 2r + 1 (rows of `inWidth × channels` bytes) at columns 2x, 2x + 1.
    package static func maxPool2x2(_ input: UnsafePointer<UInt8>, inWidth: Int, outHeight: Int, outWidth: Int, channels: Int,
                                   output: UnsafeMutablePointer<UInt8>, variant: Variant = .best) {
        let run = switch variant {
        case .avx512: facepipe_qs8_maxpool2x2_avx512
        case .avx2: facepipe_qs8_maxpool2x2_avx2
        case .scalar: facepipe_qs8_maxpool2x2_scalar
        }
        run(input, Int32(inWidth), Int32(outHeight), Int32(outWidth), Int32(channels), output)
    }

    /// `rint(clamp(fma(a, lhsScale, b·rhsScale), 0, 255))` of `count` bytes.
    package static func add(_ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, lhsScale: Float, rhsScale: Float,
                            output: UnsafeMutablePointer<UInt8>, count: Int, variant: Variant = .best) {
        let run = switch variant {
        case .avx512: facepipe_qs8_add_avx512
        case .avx2: facepipe_qs8_add_avx2
        case .scalar: facepipe_qs8_add_scalar
        }
        run(a, b, lhsScale, rhsScale, output, Int64(count))
    }

    /// `rint(clamp(x·inverseStep, 0, 255))` of `count` floats.
    package static func quantize(_ input: UnsafePointer<Float>, inverseStep: Float, output: UnsafeMutablePointer<UInt8>, count: Int,
                                 variant: Variant = .best) {
        let run = switch variant {
        case .avx512: facepipe_qs8_quantize_avx512
        case .avx2: facepipe_qs8_quantize_avx2
        case .scalar: facepipe_qs8_quantize_scalar
        }
        run(input, inverseStep, output, Int64(count))
    }
}
