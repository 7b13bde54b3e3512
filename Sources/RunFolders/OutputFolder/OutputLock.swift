#if canImport(Glibc)
import Foundation
import Glibc
import Pipeline
#endif

/// One run per output folder: an exclusive `flock` on `DIR/.lock`, taken
/// before anything in DIR is read, removed or written and held until the
/// run ends (the kernel drops it when the process dies, even on `kill -9`).
/// The file records the holder's PID and command line, so a second run
/// into the folder stops at once naming them. The file is opened relative
/// to DIR's handle without following links and stays after the run (removing
/// it would let a third run lock a new file while a second holds the old one).
package final class OutputLock {
    private let descriptor: Int32

    /// Takes the lock of `directory` for the run with `commandLine`, or
    /// throws `.outputUnusable` naming the run that holds it.
    package init(_ directory: OutputDirectory, commandLine: [String]) throws(PipelineError) {
        let lockPath = directory.path + "/" + OutputLayout.lockName
        do {
            descriptor = try directory.openPrivateFile(OutputLayout.lockName)
        } catch {
            throw .outputUnusable(path: directory.path, reason: "cannot take the lock: \(error)")
        }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            let code = errno
            let holder = Self.holder(descriptor)
            close(descriptor)
            if code == EWOULDBLOCK {
                throw .outputUnusable(path: directory.path, reason: "another facepipe run is writing into it (\(holder)); "
                    + "wait for it to end, or choose another --out")
            }
            throw .outputUnusable(path: directory.path, reason: "cannot lock \(lockPath): \(String(cString: strerror(code)))")
        }
        let record = Array("\(getpid())\n\(commandLine.joined(separator: " "))\n".utf8)
        let recorded = ftruncate(descriptor, 0) == 0
            && record.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) } == record.count
        guard recorded else {
            let code = errno
            close(descriptor)
            throw .outputUnusable(path: directory.path, reason: "cannot write \(lockPath): \(String(cString: strerror(code)))")
        }
    }

    /// Unlocks before closing: a child process another thread is spawning
    /// may hold a copy of the descriptor until its `exec`, and closing ours
    /// alone would leave the folder locked for that moment (a run right
    /// after this one was refused so in CI).
    deinit {
        flock(descriptor, LOCK_UN)
        close(descriptor)
    }

    /// "PID 1234: facepipe run …", from what the holder recorded.
    private static func holder(_ descriptor: Int32) -> String {
        var bytes = [UInt8](repeating: 0, count: 16 << 10)
        let count = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, 0) }
        let lines = String(decoding: bytes.prefix(max(count, 0)), as: UTF8.self)
            .split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false)
        guard let pid = lines.first, !pid.isEmpty else { return "it has not recorded its PID yet" }
        let command = lines.count > 1 ? lines[1].trimmingCharacters(in: .newlines) : ""
        return "PID \(pid): \(command)"
    }
}
