import Foundation
import Inference
import InferenceWide
import Testing

/// What a kernel tester does with one kernel of a family's list here.
enum KernelAvailability: Equatable {
    /// The kernel runs: test it.
    case runs
    /// The CPU (or the build) lacks what the kernel needs: the test case is
    /// cancelled with this reason, which the test report shows.
    case skipped(String)
    /// `FACEPIPE_REQUIRE_AVX512=1` and an AVX-512 F/BW/DQ/VL kernel cannot
    /// run: the test fails with this reason instead of skipping.
    case missing(String)

    /// `FACEPIPE_REQUIRE_AVX512=1`: the machine is expected to run every
    /// kernel that needs no more than AVX-512 F/BW/DQ/VL (a CI runner with AVX-512).
    static let avx512Required = ProcessInfo.processInfo.environment["FACEPIPE_REQUIRE_AVX512"] == "1"

    /// For `kernel` on a CPU with `features`, with `InferenceWide` compiled
    /// for AVX-512 or not.
    static func of<K: MicroKernelFamily>(_ kernel: K, features: CPUFeatures = .current, wideCompiled: Bool = AVX512Build.isCompiled,
                                         avx512Required: Bool = KernelAvailability.avx512Required) -> Self {
        let lacking = kernel.requiredFeatures.subtracting(features)
        let reason: String
        if !lacking.isEmpty {
            reason = "\(kernel) needs \(lacking), which this CPU lacks"
        } else if kernel.kernelSet == .avx512 && !wideCompiled {
            reason = "\(kernel) is planned only in the .avx512 set, and InferenceWide was built without AVX-512 (FACEPIPE_TARGET_CPU=generic)"
        } else {
            return .runs
        }
        let expected = kernel.requiredFeatures.isSubset(of: CPUFeatures.x86_64_v3.union(.skylakeAVX512))
        return avx512Required && expected ? .missing("FACEPIPE_REQUIRE_AVX512=1, but \(reason)") : .skipped(reason)
    }
}

/// Returns when `kernel` runs here; otherwise cancels the current test case
/// with the reason (a recorded skip, not a pass), or, under
/// `FACEPIPE_REQUIRE_AVX512=1` for an AVX-512 F/BW/DQ/VL kernel, records a
/// failure first.
func requireRunnable<K: MicroKernelFamily>(_ kernel: K, sourceLocation: SourceLocation = #_sourceLocation) throws {
    switch KernelAvailability.of(kernel) {
    case .runs:
        return
    case let .skipped(reason):
        try Test.cancel(Comment(rawValue: reason), sourceLocation: sourceLocation)
    case let .missing(reason):
        Issue.record(Comment(rawValue: reason), sourceLocation: sourceLocation)
        try Test.cancel(Comment(rawValue: reason), sourceLocation: sourceLocation)
    }
}

/// The kernels this machine cannot run, named in the test report: the
/// parameterised kernel tests cancel those cases (with the same reasons,
/// which the console does not print per case), so this test is cancelled
/// with the list, or fails under `FACEPIPE_REQUIRE_AVX512=1` when an AVX-512
/// F/BW/DQ/VL kernel is among them.
@Test func kernelsThisMachineCannotRun() throws {
    func unavailable<F: MicroKernelFamily>(_ family: F.Type) -> [KernelAvailability] {
        F.all.map { KernelAvailability.of($0) }.filter { $0 != .runs }
    }
    var skipped = [String]()
    for family in MicroKernelCatalogue.families {
        for availability in unavailable(family) {
            switch availability {
            case .runs: break
            case let .skipped(reason): skipped.append(reason)
            case let .missing(reason): Issue.record(Comment(rawValue: reason))
            }
        }
    }
    if !skipped.isEmpty { try Test.cancel(Comment(rawValue: "skipped: " + skipped.joined(separator: "; "))) }
}

/// The decision itself, on CPUs this machine may not be.
@Test func kernelAvailabilityFollowsTheCPUAndTheRequireSwitch() {
    let skylake = CPUFeatures.x86_64_v3.union(.skylakeAVX512)
    #expect(KernelAvailability.of(ConvolutionKernel.conv_4x16_avx2, features: .x86_64_v3, avx512Required: true) == .runs)
    #expect(KernelAvailability.of(ConvolutionKernel.conv1x1_8x32_avx512, features: skylake, wideCompiled: true) == .runs)
    guard case .skipped = KernelAvailability.of(ConvolutionKernel.conv1x1_8x32_avx512, features: .x86_64_v3, avx512Required: false),
          case .missing = KernelAvailability.of(ConvolutionKernel.conv1x1_8x32_avx512, features: .x86_64_v3, avx512Required: true),
          case .missing = KernelAvailability.of(DepthwiseKernel.dwconv3x3s1_4rows_avx512, features: skylake, wideCompiled: false,
                                                avx512Required: true),
          // VNNI is not what FACEPIPE_REQUIRE_AVX512 promises: skipped either way.
          case .skipped = KernelAvailability.of(Int8PointwiseKernel.qpw_u8s8_8x32_avx512vnni, features: skylake, avx512Required: true)
    else {
        Issue.record("a kernel the CPU lacks must be skipped, or fail under FACEPIPE_REQUIRE_AVX512=1 when it needs only AVX-512 F/BW/DQ/VL")
        return
    }
}
