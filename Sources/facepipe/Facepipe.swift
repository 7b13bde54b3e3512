import ArgumentParser
import CFacepipeShims
import Foundation
import Pipeline

@main
struct Facepipe: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "facepipe",
        abstract: "Face annotations for image archives: detect, landmark, annotate, with a reproducible manifest.",
        version: FacepipeVersion.string,
        subcommands: [RunCommand.self, PipelinesCommand.self, DescribeCommand.self, ModelCommand.self, DetectCommand.self, ReportCommand.self, ExportCommand.self, MergeCommand.self]
            + BenchmarkCommands.top
    )

    static func main() async {
        // Checked before any SIMD-compiled code runs: a clear message instead of SIGILL.
        guard facepipe_cpu_supports_build_target() != 0 else {
            let missing = String(cString: facepipe_cpu_missing_features())
            let message = "facepipe: this binary was built for x86-64 with AVX2/FMA/F16C; this CPU lacks: \(missing).\n"
                + "Rebuild with FACEPIPE_TARGET_CPU=generic (slower) or on this machine with FACEPIPE_TARGET_CPU=native.\n"
            FileHandle.standardError.write(Data(message.utf8))
            Foundation.exit(2)
        }
        // Two malloc arenas: measured on the bench archive with 2 workers, peak RSS
        // 278–307 MiB with glibc's default (one arena per allocating thread), 213 MiB
        // with two, same speed (benchmarks/pipeline.sh). A fixed 16 MiB mmap
        // threshold: with glibc's sliding one (raised to each large block freed, up
        // to 32 MiB) `faces` on the bench archive peaked at 251–328 MB over ten runs,
        // with this one at 248–263 MB over five, same speed (docs/BENCHMARKS.md).
        facepipe_tune_allocator(2, 16 << 20)
        // A closed stderr or stdout (`facepipe run … 2>&1 | head`) must not kill a run.
        StandardError.ignoreBrokenPipes()
        do {
            var command = try parseAsRoot()
            if var asyncCommand = command as? AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch let failure as UsageFailure {
            StandardError.write("facepipe: error: \(failure.message)\n")
            Foundation.exit(ExitStatus.usageOrSetup.rawValue)
        } catch {
            // Usage errors (bad flags, validation) exit 2 as documented; help,
            // version and explicit exit codes keep theirs.
            let code = exitCode(for: error)
            if code == .validationFailure {
                StandardError.write(fullMessage(for: error) + "\n")
                Foundation.exit(ExitStatus.usageOrSetup.rawValue)
            }
            exit(withError: error)
        }
    }
}
