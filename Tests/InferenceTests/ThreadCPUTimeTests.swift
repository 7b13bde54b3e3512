import Foundation
import Glibc
import Inference
import Testing

/// `threadCPUNanoseconds()`, the one reading of a thread's CPU time (the
/// benchmarks' and probes' timings): this thread's work counts, in the
/// kernel's own accounting; a wait and another thread's work do not.
struct ThreadCPUTimeTests {
    /// This thread's user and system time as `getrusage(RUSAGE_THREAD)` counts it.
    static func usageNanoseconds() -> UInt64 {
        var usage = rusage()
        // RUSAGE_THREAD (1 on Linux), which Glibc's module does not import.
        getrusage(__rusage_who_t(1), &usage)
        func nanoseconds(_ time: timeval) -> UInt64 { UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_usec) * 1000 }
        return nanoseconds(usage.ru_utime) + nanoseconds(usage.ru_stime)
    }

    /// Spins until `clock` has advanced by `nanoseconds` (or 5 s of wall time went by).
    static func spin(_ nanoseconds: UInt64, by clock: () -> UInt64) {
        let start = clock(), deadline = Date().addingTimeInterval(5)
        var sink: UInt64 = 0
        while clock() - start < nanoseconds && Date() < deadline {
            for step in 0..<10_000 { sink = sink &* 6364136223846793005 &+ UInt64(step) }
        }
        withExtendedLifetime(sink) {}
    }

    @Test func countsThisThreadsWorkAndNothingElse() {
        let milliseconds: UInt64 = 1_000_000
        // Work: the clock agrees with the kernel's accounting of this thread (to its microseconds' rounding).
        let cpuBefore = threadCPUNanoseconds(), usageBefore = Self.usageNanoseconds()
        Self.spin(60 * milliseconds, by: Self.usageNanoseconds)
        let cpu = threadCPUNanoseconds() - cpuBefore, usage = Self.usageNanoseconds() - usageBefore
        #expect(usage >= 60 * milliseconds)
        #expect(cpu + 5 * milliseconds >= usage && cpu <= usage + 5 * milliseconds, "thread CPU \(cpu) ns, getrusage \(usage) ns")

        // A wait: wall time, not CPU time.
        let beforeSleep = threadCPUNanoseconds()
        usleep(150_000)
        #expect(threadCPUNanoseconds() - beforeSleep < 10 * milliseconds)

        // Another thread's work: the process's CPU time, not this thread's.
        let beforeOther = threadCPUNanoseconds()
        let done = DispatchSemaphore(value: 0)
        Thread {
            Self.spin(50 * milliseconds, by: threadCPUNanoseconds)
            done.signal()
        }.start()
        done.wait()
        #expect(threadCPUNanoseconds() - beforeOther < 10 * milliseconds)
    }
}
