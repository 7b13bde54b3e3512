import CCPUFeatures
import Foundation
import InferenceWide

/// Which vector width a model's 1×1 convolutions run at, fixed when it is planned.
///
/// `.lanes16` uses `InferenceWide`'s kernels, compiled for AVX-512; `.best`
/// picks it only when that module was compiled for AVX-512 and this CPU has
/// AVX-512 F/BW/DQ/VL. `FACEPIPE_KERNELS=8` in the environment forces `.lanes8`
/// (the 8-lane AVX2 kernels every other operator uses). Each width gives the
/// same results run to run and for any number of workers; the two widths
/// differ only by float rounding (sums in another order).
public enum KernelWidth: Int, Sendable, CaseIterable, CustomStringConvertible {
    case lanes8 = 8
    case lanes16 = 16

    /// Whether this process can run kernels of this width.
    public var isAvailable: Bool {
        switch self {
        case .lanes8: true
        case .lanes16: Self.wideAvailable
        }
    }

    /// The widest available width, unless `FACEPIPE_KERNELS=8`.
    public static let best: KernelWidth =
        ProcessInfo.processInfo.environment["FACEPIPE_KERNELS"] == "8" || !wideAvailable ? .lanes8 : .lanes16

    private static let wideAvailable = WidePointwise.compiledForAVX512 && facepipe_cpu_has_avx512() != 0

    public var description: String { "\(rawValue) lanes" }
}
