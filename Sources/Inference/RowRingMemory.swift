#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CMemoryFile

/// A `RowStreamingInterpreter`'s activation storage: one ring per row
/// buffer, then a plain region (the depthwise scratch and the read slack).
///
/// Each ring's pages are mapped twice, back to back, so the `length` floats
/// starting anywhere in its first copy are one contiguous run of addresses.
/// Row `r` of a buffer with `R` floats per row then stays where it was
/// written, at `(r · R) mod length`, and any run of rows that fits in the
/// ring reads as one array: a buffer's live rows never move.
///
/// The pages belong to an anonymous memory file, mapped only here: they
/// start zeroed, count towards the resident set once touched (each copy of
/// a ring counts, so a ring's pages count twice), and go back to the system
/// when this is released. Interpreters of one worker share one
/// (`holding(rings:tail:sharing:)`), so a worker streaming canvases of many sizes
/// maps and touches its pages once.
final class RowRingMemory {
    static let pageFloats = Int(sysconf(Int32(_SC_PAGESIZE))) / MemoryLayout<Float>.stride

    /// The first float of the mapping: rings at `ringOffsets`, then the plain region at `tailOffset`.
    let base: UnsafeMutablePointer<Float>
    /// Per ring: its offset from `base` and its length, in floats (whole pages).
    let ringOffsets: [Int], ringFloats: [Int]
    let tailOffset: Int, tailFloats: Int
    /// Floats of memory under the mapping: every ring once, and the plain region.
    let physicalFloats: Int
    private let mappedBytes: Int

    /// - Parameters:
    ///   - rings: the least length of each ring, in floats (rounded up to whole pages).
    ///   - tail: floats of the plain region after the rings.
    /// - Throws: `InferenceError` when the system refuses the file or a mapping.
    init(rings: [Int], tail: Int) throws {
        let page = Self.pageFloats
        func whole(_ floats: Int) -> Int { (max(floats, 1) + page - 1) / page * page }
        ringFloats = rings.map(whole)
        tailFloats = whole(tail)
        physicalFloats = ringFloats.reduce(0, +) + tailFloats
        var offsets: [Int] = [], view = 0
        for length in ringFloats {
            offsets.append(view)
            view += 2 * length
        }
        ringOffsets = offsets
        tailOffset = view
        let floatBytes = MemoryLayout<Float>.stride
        let mappedBytes = (view + tailFloats) * floatBytes
        self.mappedBytes = mappedBytes

        let descriptor = facepipe_memory_file("facepipe-row-rings")
        guard descriptor >= 0 else { throw InferenceError(.memory(.rowBufferFile, bytes: 0, errno: errno)) }
        // The mappings keep the file's pages; the descriptor is not needed after them.
        defer { close(descriptor) }
        guard ftruncate(descriptor, off_t(physicalFloats * floatBytes)) == 0 else {
            throw InferenceError(.memory(.rowBufferFile, bytes: physicalFloats * floatBytes, errno: errno))
        }
        // Reserve the addresses, then map the file's pieces over them.
        guard let reserved = mmap(nil, mappedBytes, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0),
              reserved != UnsafeMutableRawPointer(bitPattern: -1) else {
            throw InferenceError(.memory(.rowBufferAddresses, bytes: mappedBytes, errno: errno))
        }
        func map(at offset: Int, file: Int, floats: Int) throws {
            let at = reserved + offset * floatBytes
            let mapped = mmap(at, floats * floatBytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, descriptor, off_t(file * floatBytes))
            guard mapped == at else {
                let error = errno
                munmap(reserved, mappedBytes)
                throw InferenceError(.memory(.rowBufferPages, bytes: floats * floatBytes, errno: error))
            }
        }
        var file = 0
        for (offset, length) in zip(ringOffsets, ringFloats) {
            try map(at: offset, file: file, floats: length)
            try map(at: offset + length, file: file, floats: length)
            file += length
        }
        try map(at: tailOffset, file: file, floats: tailFloats)
        base = reserved.bindMemory(to: Float.self, capacity: view + tailFloats)
    }

    /// A mapping with rings of at least `rings` floats and a plain region
    /// of at least `tail`: `shared` itself when it is that large; otherwise
    /// (for the same layout of rings) one that also holds everything
    /// `shared` holds, so its owner can let `shared` go.
    static func holding(rings: [Int], tail: Int, sharing shared: RowRingMemory?) throws -> RowRingMemory {
        guard let shared, shared.ringFloats.count == rings.count else { return try RowRingMemory(rings: rings, tail: tail) }
        if zip(rings, shared.ringFloats).allSatisfy({ $0 <= $1 }) && tail <= shared.tailFloats { return shared }
        return try RowRingMemory(rings: zip(rings, shared.ringFloats).map { max($0, $1) }, tail: max(tail, shared.tailFloats))
    }

    deinit { munmap(UnsafeMutableRawPointer(base), mappedBytes) }
}
