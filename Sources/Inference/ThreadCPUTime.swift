#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The calling thread's CPU time, in nanoseconds (`CLOCK_THREAD_CPUTIME_ID`):
/// what a measurement on a shared machine counts, since neither a wait nor
/// other threads and processes add to it. The one reading of that clock:
/// `Interpreter.invokeProfiled`, `facepipe model bench`, `facepipe
/// bench-codecs` and the probes' `DetectionTrace` take their times from here.
package func threadCPUNanoseconds() -> UInt64 {
    var spec = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &spec)
    return UInt64(spec.tv_sec) * 1_000_000_000 + UInt64(spec.tv_nsec)
}
