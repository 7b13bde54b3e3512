import Dispatch
import Foundation
import Synchronization

/// Ctrl-C handling: the first SIGINT asks the run to stop starting entries
/// (those in flight finish, the manifest is flushed, exit code 130); a second
/// one exits at once.
final class InterruptSignal: Sendable {
    private final class Counter: Sendable { let value = Atomic<Int>(0) }
    private let count = Counter()
    // DispatchSourceSignal is not Sendable; it is created here, only resumed
    // and kept alive afterwards, and its handler touches only `count`.
    private nonisolated(unsafe) let source: DispatchSourceSignal

    init() {
        signal(SIGINT, SIG_IGN)
        source = DispatchSource.makeSignalSource(signal: SIGINT, queue: .global())
        let count = self.count
        source.setEventHandler { [count] in
            let n = count.value.add(1, ordering: .sequentiallyConsistent).newValue
            if n == 1 {
                FileHandle.standardError.write(Data("\nfacepipe: interrupted; finishing entries in flight (Ctrl-C again to abort)\n".utf8))
            } else {
                Foundation.exit(130)
            }
        }
        source.resume()
    }

    var requested: Bool { count.value.load(ordering: .sequentiallyConsistent) > 0 }
}
