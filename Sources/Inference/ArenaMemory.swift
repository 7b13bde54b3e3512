#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An interpreter's activation storage: anonymous pages mapped directly
/// from the kernel, so they start zeroed, count towards the resident set
/// only once touched, and go back to the system as soon as the owner is
/// released (malloc would keep large freed blocks in its heap).
final class ArenaMemory {
    let base: UnsafeMutablePointer<Float>
    let count: Int
    private let bytes: Int

    /// - Throws: `InferenceError` when the system refuses the mapping.
    init(floats count: Int) throws {
        let bytes = max(count, 1) * MemoryLayout<Float>.stride
        guard let mapped = mmap(nil, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0),
              mapped != UnsafeMutableRawPointer(bitPattern: -1) else {
            throw InferenceError(.memory(.arena, bytes: bytes, errno: errno))
        }
        self.bytes = bytes
        self.count = count
        base = mapped.bindMemory(to: Float.self, capacity: max(count, 1))
    }

    deinit { munmap(UnsafeMutableRawPointer(base), bytes) }
}
