import ArgumentParser
import CFacepipeShims
import Foundation

@main
struct Facepipe: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "facepipe",
        abstract: "Face annotations for image archives: detect, landmark, annotate, with a reproducible manifest.",
        version: FacepipeVersion.string,
        subcommands: [ModelCommand.self]
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
        do {
            var command = try parseAsRoot()
            if var asyncCommand = command as? AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            exit(withError: error)
        }
    }
}
