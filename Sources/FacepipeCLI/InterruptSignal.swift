import Dispatch
import Foundation
import Pipeline
import RunFolders
import Synchronization

/// Ctrl-C and SIGTERM handling. The first SIGINT or SIGTERM (what Slurm and
/// Kubernetes send before a kill) asks the run to stop starting entries:
/// those in flight finish, the manifest and run.json are written, and the
/// process exits 130 (SIGINT) or 143 (SIGTERM), saying so on stderr. A
/// second signal of either kind exits at once.
final class InterruptSignal: Sendable {
    private final class State: Sendable {
        let count = Atomic<Int>(0)
        /// The first signal's number.
        let first = Atomic<Int32>(0)
    }
    private let state = State()
    // DispatchSourceSignal is not Sendable; they are created here, only
    // resumed and kept alive afterwards, and their handlers touch only `state`.
    private nonisolated(unsafe) let sources: [DispatchSourceSignal]

    init() {
        let state = self.state
        sources = [SIGINT, SIGTERM].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { [state] in
                let n = state.count.add(1, ordering: .sequentiallyConsistent).newValue
                if n == 1 {
                    state.first.store(number, ordering: .sequentiallyConsistent)
                    let what = number == SIGTERM ? "terminated (SIGTERM)" : "interrupted"
                    let again = number == SIGTERM ? "another signal aborts" : "Ctrl-C again to abort"
                    StandardError.write("\nfacepipe: \(what); finishing entries in flight, then writing the manifest and run.json (\(again))\n")
                } else {
                    Foundation.exit(128 + number)
                }
            }
            source.resume()
            return source
        }
    }

    var requested: Bool { state.count.load(ordering: .sequentiallyConsistent) > 0 }

    /// The exit status of a run this signal stopped: 130 for SIGINT, 143 for SIGTERM.
    var exitStatus: ExitStatus {
        state.first.load(ordering: .sequentiallyConsistent) == SIGTERM ? .terminated : .interrupted
    }
}
