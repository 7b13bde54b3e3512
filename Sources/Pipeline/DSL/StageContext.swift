import Foundation
import Synchronization

/// What a stage may use while processing one image: resources shared by the
/// whole run (loaded once, read-only) and resources private to the worker
/// running it (created once per worker, e.g. an interpreter with its arena).
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
    private var workerResources: [String: Any] = [:]

    public init(shared: SharedResources, worker: Int) {
        self.shared = shared
        self.worker = worker
    }

    /// The worker's instance of a resource, created by `make` on first use.
    public func workerResource<T>(_ key: String, as type: T.Type = T.self, make: () throws -> T) rethrows -> T {
        if let existing = workerResources[key] as? T { return existing }
        let made = try make()
        workerResources[key] = made
        return made
    }
}

/// Read-only resources shared by every worker of a run: the models folder and
/// values loaded once on first use (e.g. parsed model files).
public final class SharedResources: Sendable {
    /// Where the verified model files are.
    public let modelsDirectory: URL
    /// Builds each worker's face engine (nil: face stages fail with a clear error).
    public let faceEngineFactory: FaceEngineFactory?
    private let values = Mutex<[String: any Sendable]>([:])

    public init(modelsDirectory: URL, faceEngineFactory: FaceEngineFactory? = nil) {
        self.modelsDirectory = modelsDirectory
        self.faceEngineFactory = faceEngineFactory
    }

    /// The shared value for `key`, loaded by `make` once (other workers wait for it).
    public func value<T: Sendable>(_ key: String, as type: T.Type = T.self, make: () throws -> T) throws -> T {
        try values.withLock { values in
            if let existing = values[key] as? T { return existing }
            let made = try make()
            values[key] = made
            return made
        }
    }
}
