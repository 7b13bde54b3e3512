#if canImport(Glibc)
import Glibc
#endif

/// Transparent huge pages for the large buffers a picture goes through
/// (decoded pixels, upright copies, encoded PNGs: tens of MB each).
///
/// glibc serves such buffers with a fresh `mmap` each time, and the kernel
/// fills them one 4 KiB page per fault. Where the system leaves huge pages
/// to the program's choice (`transparent_hugepage/enabled` = `madvise`),
/// advising the buffer before it is first written lets the kernel back its
/// whole 2 MiB pages at once: a `faces` run on the bench archive went from
/// ~244 000 to ~133 000 page faults, with a third less system time. A hint
/// only: contents, results and errors do not change, and where huge pages
/// are unavailable it does nothing.
package enum HugePages {
    /// The huge page size on x86-64 and arm64 with 4 KiB base pages.
    static let size = 2 << 20

    /// Buffers smaller than this are left alone: they hold at most one whole
    /// huge page, and glibc may carve them out of its heap.
    package static let threshold = 4 << 20

    /// Advises the whole huge pages inside `start ..< start + byteCount`.
    /// Call it before the buffer is first written.
    package static func advise(_ start: UnsafeMutableRawPointer, byteCount: Int) {
        guard byteCount >= threshold else { return }
        adviseAligned(start, byteCount: byteCount)
    }

    private static func adviseAligned(_ start: UnsafeMutableRawPointer, byteCount: Int) {
        #if os(Linux)
        let first = (Int(bitPattern: start) + size - 1) & ~(size - 1)
        let end = (Int(bitPattern: start) + byteCount) & ~(size - 1)
        guard end > first, let aligned = UnsafeMutableRawPointer(bitPattern: first) else { return }
        _ = madvise(aligned, end - first, MADV_HUGEPAGE)
        #endif
    }
}

extension Array where Element == UInt8 {
    /// `count` bytes written by `initializer`, in storage advised for huge
    /// pages first when it is large (`HugePages`). The closure must
    /// initialize all `count` bytes.
    package init<E: Error>(hugePageBacked count: Int,
                           initializingWith initializer: (UnsafeMutableBufferPointer<UInt8>) throws(E) -> Void) throws(E) {
        var failure: E?
        self.init(unsafeUninitializedCapacity: count) { buffer, initialized in
            if let base = buffer.baseAddress { HugePages.advise(UnsafeMutableRawPointer(base), byteCount: buffer.count) }
            do throws(E) {
                try initializer(UnsafeMutableBufferPointer(rebasing: buffer[0..<count]))
                initialized = count
            } catch {
                failure = error
                initialized = 0
            }
        }
        if let failure { throw failure }
    }
}
