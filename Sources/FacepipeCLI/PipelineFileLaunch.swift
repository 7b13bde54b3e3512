#if canImport(Glibc)
import Foundation
import Glibc
import Pipeline
import RunFolders
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

    static func run(_ request: PipelineFileRequest, mode: Mode) -> Int32 {
        do throws(PipelineFileError) {
            let build = try PipelineFileBuild.forThisProcess()
            let tool = try build.tool(for: request.file, facepipeVersion: FacepipeVersion.string) { StandardError.write($0 + "\n") }
            let arguments = request.arguments(naming: tool.pipelineName)
            switch mode {
            case .replaceProcess:
                try replaceProcess(with: tool.executable, arguments: arguments)
            case .child:
                return try runChild(tool.executable, arguments: arguments)
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

    private static func runChild(_ executable: URL, arguments: [String]) throws(PipelineFileError) -> Int32 {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        do {
            try process.run()
        } catch {
            throw .launchFailed(executable: executable.path, reason: error.localizedDescription)
        }
        process.waitUntilExit()
        return process.terminationReason == .exit ? process.terminationStatus : 128 + process.terminationStatus
    }
}
