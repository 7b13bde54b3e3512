/// Read-only float storage for everything a plan prepared at load time:
/// packed weights, padded biases, PReLU slopes.
///
/// Each block starts on a 64-byte boundary and is followed by at least
/// `Kernels.readSlack` floats, so SIMD kernels may load 8 lanes past the end
/// of any block.
final class ConstantPool: @unchecked Sendable {
    // Safe to share: `storage` is written only inside `init` and never mutated
    // afterwards; all readers get `UnsafePointer`s.
    private let storage: UnsafeMutablePointer<Float>
    let count: Int

    init(_ builder: ConstantPoolBuilder) {
        count = builder.values.count + Kernels.readSlack
        // 64-byte aligned, so each 16-float-aligned block is whole cache
        // lines: a 16-lane load never straddles two (malloc gives 16 bytes).
        storage = UnsafeMutableRawPointer.allocate(byteCount: count * MemoryLayout<Float>.stride, alignment: 64)
            .bindMemory(to: Float.self, capacity: count)
        storage.initialize(repeating: 0, count: count)
        builder.values.withUnsafeBufferPointer { storage.update(from: $0.baseAddress!, count: $0.count) }
    }

    deinit { storage.deallocate() }

    var base: UnsafePointer<Float> { UnsafePointer(storage) }
}

/// Collects constant blocks at plan time; offsets are in floats from the pool base.
///
/// A builder made with `countingOnly` stores nothing and only hands out the
/// offsets: used when re-planning a model at another input size, whose
/// constants are the same blocks in the same order as the original plan's.
struct ConstantPoolBuilder {
    private(set) var values: [Float] = []
    private(set) var count = 0
    let countingOnly: Bool

    init(countingOnly: Bool = false) {
        self.countingOnly = countingOnly
    }

    /// Appends `block` at a 16-float boundary and returns its offset.
    mutating func append<C: Collection<Float>>(_ block: C) -> Int {
        let offset = (count + 15) / 16 * 16
        count = offset + block.count
        if !countingOnly {
            values.append(contentsOf: repeatElement(0, count: offset - values.count))
            values.append(contentsOf: block)
        }
        return offset
    }

    /// Like `append` for a block of `blockCount` floats whose values are not needed (`countingOnly`).
    mutating func reserve(_ blockCount: Int) -> Int {
        precondition(countingOnly, "ConstantPoolBuilder.reserve is for counting-only builders")
        let offset = (count + 15) / 16 * 16
        count = offset + blockCount
        return offset
    }
}
