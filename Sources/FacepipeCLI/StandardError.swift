import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Messages and progress on stderr, written with `write(2)`. SIGPIPE is
/// ignored (``ignoreBrokenPipes()``), so a closed stderr (`facepipe run … 2>&1 | head`)
/// makes a write fail with EPIPE instead of killing the run; after that
/// nothing more is written (Foundation's `FileHandle.write` would trap on
/// the error). The run itself goes on.
enum StandardError {
    private static let isClosed = Atomic<Bool>(false)

    /// Ignores SIGPIPE for the process: writes to a closed pipe fail with EPIPE.
    /// Also SIGXFSZ: a file over the size limit (`ulimit -f`) fails with
    /// EFBIG, a write error the run reports, instead of killing it.
    static func ignoreBrokenPipes() {
        signal(SIGPIPE, SIG_IGN)
        signal(SIGXFSZ, SIG_IGN)
    }

    /// Whether stderr still takes output (false after EPIPE).
    static var isOpen: Bool { !isClosed.load(ordering: .relaxed) }

    static func write(_ text: String) {
        guard isOpen else { return }
        var bytes = Array(text.utf8)
        var written = 0
        while written < bytes.count {
            let result = bytes.withUnsafeMutableBytes { Glibc.write(STDERR_FILENO, $0.baseAddress! + written, $0.count - written) }
            if result < 0 {
                if errno == EINTR { continue }
                if errno == EPIPE { isClosed.store(true, ordering: .relaxed) }
                return
            }
            written += result
        }
    }
}
