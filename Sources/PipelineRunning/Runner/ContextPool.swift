import Pipeline
import Synchronization

/// One ``StageContext`` per worker, checked out by a task for the duration of
/// one entry and returned afterwards. The runner never has more tasks in
/// flight than contexts, so a check-out always finds one; per-worker
/// resources (interpreters, arenas) are thus created once per worker.
final class ContextPool: Sendable {
    private let available: Mutex<[StageContext]>

    init(workers: Int, shared: SharedResources) {
        available = Mutex((0..<workers).reversed().map { StageContext(shared: shared, worker: $0) })
    }

    func checkOut() -> StageContext {
        available.withLock { contexts in
            guard let context = contexts.popLast() else {
                preconditionFailure("ContextPool: more tasks in flight than workers")
            }
            return context
        }
    }

    func checkIn(_ context: StageContext) {
        available.withLock { $0.append(context) }
    }
}
