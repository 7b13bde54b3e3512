import ArgumentParser
import CFacepipeShims
import Foundation
import Logging
import Pipeline
import Pipelines
import RunFolders

/// facepipe's command line as a library: every verb (`run`, `describe`,
/// `pipelines`, `export`, `report`, `merge`, `detect`, `model`) with the
/// pipelines a tool adds beside the built-in ones.
///
/// A tool's whole `main.swift`:
/// ```swift
/// import FacepipeCLI
/// await FacepipeCommand.main(adding: [myPipeline])
/// ```
/// `myPipeline` is then listed by `pipelines`, described by `describe`,
/// and run by `run myPipeline INPUT… --out DIR` (or `run --pipeline NAME`),
/// its stages' options set with `--set STAGE.OPTION=VALUE`. A name that is
/// already taken (by a built-in pipeline or another added one) is an error
/// (exit 2) before any argument is read.
public enum FacepipeCommand {
    /// Runs the command line of this process (`CommandLine.arguments`) and
    /// exits with its status: 0 ok, 1 some entries failed, 2 usage or setup
    /// error, 3 outputs could not be written, 130/143 interrupted.
    /// `commandName`: the name help texts show (default: the executable's file name).
    public static func main(adding pipelines: [Pipeline] = [], commandName: String? = nil) async -> Never {
        // Checked before any SIMD-compiled code runs: a clear message instead of SIGILL.
        guard facepipe_cpu_supports_build_target() != 0 else {
            let missing = String(cString: facepipe_cpu_missing_features())
            let message = "facepipe: this binary was built for x86-64 with AVX2/FMA/F16C; this CPU lacks: \(missing).\n"
                + "Rebuild with FACEPIPE_TARGET_CPU=generic (slower) or on this machine with FACEPIPE_TARGET_CPU=native.\n"
            FileHandle.standardError.write(Data(message.utf8))
            Foundation.exit(2)
        }
        // One malloc arena per core (at least two): measured on the bench archive with
        // 2 workers on 2 cores, peak RSS 278–307 MiB with glibc's default (up to 8 arenas
        // per core, one per allocating thread), 213 MiB with two, same speed
        // (benchmarks/pipeline.sh). Not a fixed two: Swift's pool runs one thread per
        // core, and 16 or 64 of them would queue on two arena locks (malloc and free
        // take 0.5–1.7 % of a worker's CPU, docs/BENCHMARKS.md, "Cores"). A fixed 16 MiB mmap
        // threshold: with glibc's sliding one (raised to each large block freed, up
        // to 32 MiB) `faces` on the bench archive peaked at 251–328 MB over ten runs,
        // with this one at 248–263 MB over five, same speed (docs/BENCHMARKS.md).
        facepipe_tune_allocator(Int32(max(2, ProcessInfo.processInfo.activeProcessorCount)), 16 << 20)
        // A closed stderr or stdout (`facepipe run … 2>&1 | head`) must not kill a run.
        StandardError.ignoreBrokenPipes()
        // Once per process (swift-log allows no second bootstrap), so `run(_:adding:)`
        // can be called again in one process.
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = .warning
            return handler
        }
        let name = commandName ?? CommandLine.arguments.first.map { URL(fileURLWithPath: $0).lastPathComponent } ?? "facepipe"
        let status = await run(Array(CommandLine.arguments.dropFirst()), adding: pipelines, commandName: name,
                               pipelineFiles: .replaceProcess)
        Foundation.exit(status)
    }

    /// Runs one command line (`arguments` without the program's name) in
    /// this process and returns the exit status ``main(adding:commandName:)``
    /// would exit with; messages go to stdout and stderr as there.
    /// A pipeline file (`run --pipeline MyPipeline.swift …`, `describe --pipeline MyPipeline.swift`)
    /// is compiled and its tool run as a child process.
    public static func run(_ arguments: [String], adding pipelines: [Pipeline] = [],
                           commandName: String = "facepipe") async -> Int32 {
        await run(arguments, adding: pipelines, commandName: commandName, pipelineFiles: .child)
    }

    private static func run(_ arguments: [String], adding pipelines: [Pipeline], commandName: String,
                            pipelineFiles: PipelineFileLaunch.Mode) async -> Int32 {
        let registry: PipelineRegistry
        do {
            registry = try PipelineRegistry.builtIn.adding(pipelines)
        } catch {
            StandardError.write("facepipe: error: \(error.description)\n")
            return ExitStatus.usageOrSetup.rawValue
        }
        return await CommandLineContext.$registry.withValue(registry) {
            await CommandLineContext.$commandName.withValue(commandName) {
                await parseAndRun(arguments, pipelineFiles: pipelineFiles)
            }
        }
    }

    /// Parses `arguments` against ``Facepipe`` and runs the command they name.
    private static func parseAndRun(_ arguments: [String], pipelineFiles: PipelineFileLaunch.Mode) async -> Int32 {
        do {
            var command = try Facepipe.parseAsRoot(arguments)
            if let request = PipelineFileRequest.recognize(command, arguments: arguments) {
                return await PipelineFileLaunch.run(request, mode: pipelineFiles)
            }
            if var asyncCommand = command as? AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
            return ExitCode.success.rawValue
        } catch let failure as UsageFailure {
            StandardError.write("facepipe: error: \(failure.message)\n")
            return ExitStatus.usageOrSetup.rawValue
        } catch {
            // Usage errors (bad flags, validation) exit 2 as documented; help,
            // version and explicit exit codes keep theirs (ArgumentParser's own
            // `exit(withError:)`: help and version on stdout, the rest on stderr).
            let code = Facepipe.exitCode(for: error)
            let message = Facepipe.fullMessage(for: error)
            if code == .validationFailure {
                StandardError.write(message + "\n")
                return ExitStatus.usageOrSetup.rawValue
            }
            if !message.isEmpty {
                if code == .success {
                    print(message)
                } else {
                    StandardError.write(message + "\n")
                }
            }
            return code.rawValue
        }
    }
}
