import Foundation

/// Steps one entry through the top-level stages of a compiled plan, serving
/// cacheable stages from the stage cache when allowed (plumbing: stages call
/// it through ``Stage/_execute(_:executor:)``).
public final class StageExecutor {
    let steps: [CompiledPipeline.Step]
    let cache: StageCache?
    let contentHash: String
    let context: StageContext
    private var position = 0
    /// How many stage results came from the cache (for the run summary).
    private(set) var cacheHits = 0
    /// The record after the last stage that succeeded (fills size columns of an error row).
    private(set) var lastRecord: EntryRecord?

    init(steps: [CompiledPipeline.Step], cache: StageCache?, contentHash: String, context: StageContext) {
        self.steps = steps
        self.cache = cache
        self.contentHash = contentHash
        self.context = context
    }

    func run<S: Stage>(_ stage: S, _ input: consuming S.Input) throws -> S.Output {
        let step = steps[position]
        position += 1
        let cacheKey = step.caching == .records ? step.cacheKey(contentHash: contentHash) : nil
        if let cacheKey, let cache, !step.recompute,
           let inputFrame = (copy input) as? any AnyFrame,
           let outputType = S.Output.self as? any AnyFrame.Type,
           let record = cache.load(key: cacheKey) {
            cacheHits += 1
            // The cache is keyed by content: keep this entry's identity.
            var restored = record
            restored.archive = inputFrame.record.archive
            restored.entry = inputFrame.record.entry
            restored.index = inputFrame.record.index
            lastRecord = restored
            return outputType.init(image: inputFrame.image, record: restored, encoded: inputFrame.encoded) as! S.Output
        }
        let output: S.Output
        do {
            output = try stage.process(input, context: context)
        } catch {
            throw StageFailure(stage: step.definition.name, error: error)
        }
        if let frame = output as? any AnyFrame {
            lastRecord = frame.record
            if let cacheKey, let cache { cache.store(frame.record, key: cacheKey) }
        }
        return output
    }
}
