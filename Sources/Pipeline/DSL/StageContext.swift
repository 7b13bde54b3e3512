import FaceAnalysis
import Foundation

/// What a stage may use while processing one image: resources shared by the
/// whole run (loaded once by `compile()`, read-only) and resources private to
/// the worker running it (created once per worker, e.g. an interpreter with
/// its arena).
///
/// A context belongs to one worker; the runner hands it to exactly one task at
/// a time (see ``ContextPool``).
public final class StageContext: @unchecked Sendable {
    // @unchecked: `workerResources` is mutable, but a context is only ever used
    // by the single task that checked it out of the pool; the pool's mutex
    // orders the hand-over between tasks.
    /// Resources shared by all workers.
    public let shared: SharedResources
    /// 0-based worker number (for logs; results must not depend on it).
    public let worker: Int
    private var workerResources: [ObjectIdentifier: Any] = [:]

    public init(shared: SharedResources, worker: Int) {
        self.shared = shared
        self.worker = worker
    }

    /// The worker's instance of `Resource`, made on first use and kept for
    /// the worker's lifetime. Keyed by the type itself, so a resource can be
    /// neither misspelt nor read back as another type.
    public func resource<Resource: WorkerResource>(_ type: Resource.Type = Resource.self) throws -> Resource {
        let key = ObjectIdentifier(type)
        if let existing = workerResources[key] {
            // Stored under its own type's identifier just below.
            return existing as! Resource
        }
        let made = try Resource(shared: shared)
        workerResources[key] = made
        return made
    }
}

/// A value each worker makes once and keeps: an image decoder with its C
/// handle, a face engine with its interpreters.
public protocol WorkerResource {
    init(shared: SharedResources) throws
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
