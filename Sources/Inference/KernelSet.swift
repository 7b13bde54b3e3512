import Foundation
import InferenceWide

/// Which micro-kernels a model's plan may choose from, fixed when it is
/// planned (see `MicroKernelFamily`).
///
/// `.avx2` holds the 8-lane kernels, compiled for the build's target CPU
/// (x86-64-v3 by default). `.avx512` adds `InferenceWide`'s 16-lane
/// kernels, compiled for skylake-avx512, where a layer has one. Both sets
/// give the same bytes: the 16-lane kernels sum every output in the 8-lane
/// kernels' order.
///
/// The set is chosen from the CPU probe (`best(for: .current)`) unless one
/// is passed to `Model` (the facepipe command passes the run
/// configuration's choice, which `FACEPIPE_KERNELS=8` sets to `.avx2`,
/// into `Pipeline.compile`).
public enum KernelSet: String, Sendable, CaseIterable, CustomStringConvertible {
    case avx2
    case avx512

    /// Whether this process can run the set: `.avx512` needs `InferenceWide`
    /// compiled for AVX-512 and a CPU with AVX-512 F/BW/DQ/VL.
    public var isAvailable: Bool { Self.isAvailable(self, on: .current) }

    /// The largest set `features` can run.
    public static func best(for features: CPUFeatures) -> KernelSet {
        isAvailable(.avx512, on: features) ? .avx512 : .avx2
    }

    private static func isAvailable(_ set: KernelSet, on features: CPUFeatures) -> Bool {
        switch set {
        case .avx2: true
        case .avx512: AVX512Build.isCompiled && features.isSuperset(of: .skylakeAVX512)
        }
    }

    /// What a plan in this set may ask of a CPU with `cpu`: all of it for
    /// `.avx512`, all but the AVX-512 extensions for `.avx2`. The planner
    /// chooses each step's micro-kernel with it (`MicroKernelFamily.best(for:features:)`).
    public func features(on cpu: CPUFeatures) -> CPUFeatures {
        switch self {
        case .avx2: cpu.subtracting(.anyAVX512)
        case .avx512: cpu
        }
    }

    /// The largest set this CPU runs: what `Model` plans with when no set is passed.
    public static var best: KernelSet { best(for: .current) }

    public var description: String { rawValue }
}
