import ArgumentParser

/// `facepipe-probes PROBE …`: timing probes for the scripts in benchmarks/.
/// Each prints measurements and asserts nothing; run from the repository root
/// (models/, datasets/) in a release build.
@main
struct FacepipeProbes: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "facepipe-probes",
        abstract: "Timing probes: print measurements, assert nothing (run from the repository root, release build).",
        subcommands: [FaceTimings.self, CascadeGate.self, FaceTilingBreakdown.self, CanvasStatistics.self, DetectorProfile.self, ImageCoreTimings.self, ArchiveReadTimings.self, PlanTimings.self, YuNetProfile.self, KernelTimings.self, YuNetCalibration.self]
    )
}

/// A probe that cannot measure what it was asked to (missing face, empty input).
struct ProbeFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
