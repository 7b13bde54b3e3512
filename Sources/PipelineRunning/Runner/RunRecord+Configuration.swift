import Foundation
import Pipeline
import RunFolders

extension RunRecord {
    /// The record of a run of `plan` with `configuration` (what run.json
    /// says of the workers, the recompute policy, `--resume` and the models).
    init(toolVersion: String, plan: CompiledPipeline, steps: [CompiledPipeline.Step], inputs: [InputInfo],
         configuration: RunConfiguration, summary: RunSummary, started: Date, finished: Date) {
        let recompute: String
        switch configuration.recompute.kind {
        case .useCache: recompute = "use-cache"
        case .from(let stage): recompute = "from \(stage)"
        case .only(let stage): recompute = "only \(stage)"
        case .everything: recompute = "everything"
        }
        self.init(toolVersion: toolVersion, plan: plan, steps: steps, inputs: inputs,
                  configuration: ConfigurationInfo(workers: configuration.workers, recompute: recompute,
                                                   resume: configuration.resume,
                                                   modelsDirectory: plan.modelsDirectory.path),
                  summary: summary, started: started, finished: finished)
    }
}
