import Inference
import InferenceWide
import Testing

extension Trait where Self == ConditionTrait {
    /// Runs a test only where the AVX-512 micro-kernels can run: the CPU
    /// has AVX-512 F/BW/DQ/VL and `InferenceWide` was compiled for it.
    static var avx512: Self {
        .enabled(if: CPUFeatures.current.isSuperset(of: .skylakeAVX512) && AVX512Build.isCompiled,
                 "this CPU has no AVX-512 (or InferenceWide was built without it)")
    }
}
