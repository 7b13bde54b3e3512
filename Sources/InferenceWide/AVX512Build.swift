/// Whether this module was compiled for AVX-512 (`FACEPIPE_WIDE_AVX512`,
/// set in Package.swift with `-target-cpu skylake-avx512`). Otherwise its
/// kernels are correct but no faster, and `KernelSet.avx512` is unavailable.
public enum AVX512Build {
    public static var isCompiled: Bool {
        #if FACEPIPE_WIDE_AVX512
        true
        #else
        false
        #endif
    }
}
