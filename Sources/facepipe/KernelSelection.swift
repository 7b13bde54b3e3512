import Foundation
import Inference

/// The run configuration's choice of inference micro-kernels: the one place
/// that reads `FACEPIPE_KERNELS`. `FACEPIPE_KERNELS=8` selects the 8-lane
/// set (`KernelSet.avx2`), to check that path on an AVX-512 machine; any
/// other value, or none, keeps the set the CPU probe picks. Both sets give
/// the same bytes.
enum KernelSelection {
    /// Makes the chosen set the process default (`KernelSet.setProcessDefault`)
    /// for every model loaded afterwards. Called once at start-up, after the
    /// CPU check.
    static func apply(environment: [String: String] = ProcessInfo.processInfo.environment) {
        if environment["FACEPIPE_KERNELS"] == "8" { KernelSet.setProcessDefault(.avx2) }
    }
}
