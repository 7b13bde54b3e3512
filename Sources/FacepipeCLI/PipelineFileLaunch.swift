#if canImport(Glibc)
import Foundation
import Glibc
import Pipeline
import RunFolders
import Subprocess
import SystemPackage
#endif

/// Runs a ``PipelineFileRequest``: builds the file's tool (or takes it from
/// the cache) and runs it with the request's arguments. `facepipe` itself
/// replaces its process with the tool (`execv`: same process, signals,
/// standard input and exit status); ``FacepipeCommand/run(_:adding:commandName:)``
/// runs it as a child and returns its exit status.
enum PipelineFileLaunch {
    /// How the tool is started.
    enum Mode {
        /// Replace this process (`FacepipeCommand.main`).
        case replaceProcess
        /// Run a child process and wait for it.
        case child
    }

    static func run(_ request: PipelineFileRequest, mode: Mode) async -> Int32 {
        do throws(PipelineFileError) {
            let build = try await PipelineFileBuild.forThisProcess()
            let tool = try await build.tool(for: request.file, facepipeVersion: FacepipeVersion.string) { StandardError.write($0 + "\n") }
            let arguments = request.arguments(naming: tool.pipelineName)
            switch mode {
            case .replaceProcess:
                try replaceProcess(with: tool.executable, arguments: arguments)
            case .child:
                return try await runChild(tool.executable, arguments: arguments)
            }
        } catch {
            StandardError.write("facepipe: error: \(TerminalText.escaped(error.description))\n")
            return ExitStatus.usageOrSetup.rawValue
        }
    }

    /// `execv`: returns only when it failed.
    private static func replaceProcess(with executable: URL, arguments: [String]) throws(PipelineFileError) -> Never {
        let argv = (["facepipe"] + arguments).map { strdup($0) } + [nil]
        execv(executable.path, argv)
        let reason = String(cString: strerror(errno))
        throw .launchFailed(executable: executable.path, reason: reason)
    }

    /// The tool as a child with this process's standard input, output and
    /// error; its exit status (128 + the signal that ended it).
    private static func runChild(_ executable: URL, arguments: [String]) async throws(PipelineFileError) -> Int32 {
        do {
            let result = try await Subprocess.run(.path(FilePath(executable.path)), arguments: Arguments(arguments),
                                                  input: .currentStandardInput, output: .currentStandardOutput,
                                                  error: .currentStandardError)
            return PipelineFileBuild.exitStatus(result.terminationStatus)
        } catch {
            throw .launchFailed(executable: executable.path, reason: "\(error)")
        }
    }
}
