import FaceAnalysis
import Foundation

/// What a stage may use while processing one image: resources shared by the
/// whole run (loaded once by `compile()`, read-only) and resources private to
/// the worker running it (created once per worker, e.g. an interpreter with
/// its arena).
///
/// A context belongs to one worker; the runner hands it to exactly one task at
/// a time (see `ContextPool`).
public final class StageContext: @unchecked Sendable {
    // @unchecked: `workerResources` is mutable, but a context is only ever used
    // by the single task that checked it out of the pool; the pool's mutex
    // orders the hand-over between tasks.
    /// Resources shared by all workers.
    public let shared: SharedResources
    /// 0-based worker number (for logs; results must not depend on it).
    public let worker: Int
    /// Each key's value, under the key's type. Only ``resource(_:)`` stores
    /// here, always `Key.Value` under `Key`.
    private var workerResources: [ObjectIdentifier: Any] = [:]

    public init(shared: SharedResources, worker: Int) {
        self.shared = shared
        self.worker = worker
    }

    /// The worker's value for `key`, made on first use and kept for the
    /// worker's lifetime. The key is a type (``StageResourceKey``), so it can
    /// be neither misspelt nor read back as another type than its `Value`.
    public func resource<Key: StageResourceKey>(_ key: Key.Type) throws -> Key.Value {
        let slot = ObjectIdentifier(key)
        if let existing = workerResources[slot] as? Key.Value { return existing }
        let made = try Key.makeValue(shared: shared)
        workerResources[slot] = made
        return made
    }
}

/// Read-only resources shared by every worker of a run: the models the plan
/// loaded and how workers build their face engine.
public final class SharedResources: Sendable {
    /// The plan's verified models.
    public let models: FaceModels
    /// Builds each worker's face engine.
    public let faceEngineFactory: FaceEngineFactory
    /// Whether images keep their entry's format (`--redacted-shards`): a
    /// PNG entry's image is written as PNG, whatever ``WriteOutputs`` says
    /// (whose JPEG quality serves the JPEG entries).
    public let imagesInEntryFormat: Bool

    public init(models: FaceModels = .none, faceEngineFactory: FaceEngineFactory = .builtIn,
                imagesInEntryFormat: Bool = false) {
        self.models = models
        self.faceEngineFactory = faceEngineFactory
        self.imagesInEntryFormat = imagesInEntryFormat
    }
}
