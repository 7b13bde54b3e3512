import Foundation
import Inference

/// The run configuration's choice of inference micro-kernels: the one place
/// that reads `FACEPIPE_KERNELS`. `FACEPIPE_KERNELS=8` selects the 8-lane
/// set (`KernelSet.avx2`), to check that path on an AVX-512 machine; any
/// other value, or none, keeps the set the CPU probe picks. Both sets give
/// the same bytes. Every command passes the choice to what plans models
/// (`Pipeline.compile`, `Model`), so no library reads the environment.
enum KernelSelection {
    static func kernels(environment: [String: String] = ProcessInfo.processInfo.environment) -> KernelSet {
        environment["FACEPIPE_KERNELS"] == "8" ? .avx2 : .best
    }
}
