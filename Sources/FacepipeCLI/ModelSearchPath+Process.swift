import Foundation
import Pipeline

extension ModelSearchPath {
    /// The search for this process: its `--models` option, its environment,
    /// the running binary (`/proc/self/exe`) and the checkout this file was
    /// compiled in (the folder holding `Sources/FacepipeCLI/`: for a tool
    /// that depends on facepipe by path, the facepipe checkout it names).
    static func forThisProcess(option: String?, sourceFile: String = #filePath) -> ModelSearchPath {
        let executable = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
            .map { URL(fileURLWithPath: $0) }
        let checkout = URL(fileURLWithPath: sourceFile)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        return ModelSearchPath(option: option, environment: ProcessInfo.processInfo.environment,
                               executable: executable, checkout: checkout)
    }

    /// Compiles `pipeline` with the first folder that holds its models; a
    /// missing model becomes a usage failure naming every place looked at.
    func compile(_ pipeline: Pipeline) throws -> CompiledPipeline {
        do {
            return try pipeline.compile(modelsDirectory: folder(for: pipeline), kernels: KernelSelection.kernels())
        } catch .modelMissing(let file, _) {
            throw UsageFailure(message: notFound(file: file))
        } catch {
            throw UsageFailure(message: error.description)
        }
    }
}
