import Foundation
import Inference
import InferenceWide
import Testing

/// Whether the AVX-512 micro-kernels can run here: the CPU has AVX-512
/// F/BW/DQ/VL and `InferenceWide` was compiled for it.
private let avx512Runs = CPUFeatures.current.isSuperset(of: .skylakeAVX512) && AVX512Build.isCompiled

extension Trait where Self == ConditionTrait {
    /// Runs a test only where the AVX-512 micro-kernels can run (skipped
    /// elsewhere; `FACEPIPE_REQUIRE_AVX512=1` turns that skip into a failure,
    /// ``avx512KernelsRunWhereRequired()``).
    static var avx512: Self {
        .enabled(if: avx512Runs, "this CPU has no AVX-512 (or InferenceWide was built without it)")
    }
}

/// `FACEPIPE_REQUIRE_AVX512=1`, on a machine that is expected to run the
/// AVX-512 kernels (a CI runner with AVX-512): fails when the `.avx512`
/// tests would be skipped, instead of passing with them silently skipped.
@Test(.enabled(if: ProcessInfo.processInfo.environment["FACEPIPE_REQUIRE_AVX512"] == "1", "FACEPIPE_REQUIRE_AVX512 is not 1"))
func avx512KernelsRunWhereRequired() {
    #expect(CPUFeatures.current.isSuperset(of: .skylakeAVX512),
            "FACEPIPE_REQUIRE_AVX512=1, but this CPU lacks AVX-512 F/BW/DQ/VL: the AVX-512 kernel tests were skipped")
    #expect(AVX512Build.isCompiled,
            "FACEPIPE_REQUIRE_AVX512=1, but InferenceWide was built without AVX-512 (FACEPIPE_TARGET_CPU=generic): the AVX-512 kernel tests were skipped")
}
