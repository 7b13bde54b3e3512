import CFacepipeShims

/// Writes a deflate bit stream (least-significant bit first, RFC 1951 §3.1.1)
/// into memory the caller owns, through a 64-bit accumulator.
///
/// `write` only accumulates; `flush` stores all eight accumulator bytes at
/// once (unaligned) and advances by the whole bytes among them. Callers add
/// at most 56 bits between flushes, and the memory must extend at least
/// 8 bytes past the last byte of the stream.
struct DeflateBitWriter {
    let base: UnsafeMutableRawPointer
    let capacity: Int
    /// Bytes completely written.
    private(set) var position: Int
    private var bits: UInt64 = 0
    private var bitCount = 0

    init(base: UnsafeMutableRawPointer, capacity: Int, position: Int) {
        self.base = base
        self.capacity = capacity
        self.position = position
    }

    /// Bytes still free after the stream, keeping the 8 flush bytes in reserve.
    var remainingCapacity: Int { capacity - position - 8 }

    @inline(__always)
    mutating func write(_ value: UInt64, bits count: Int) {
        bits |= value &<< UInt64(truncatingIfNeeded: bitCount)
        bitCount &+= count
    }

    /// Writes a packed Huffman code (`HuffmanCode.packed` layout).
    @inline(__always)
    mutating func write(code packed: UInt32) {
        write(UInt64(packed & 0xFFFF), bits: Int(packed >> 24))
    }

    @inline(__always)
    mutating func flush() {
        assert(position + 8 <= capacity && bitCount <= 63)
        base.storeBytes(of: bits.littleEndian, toByteOffset: position, as: UInt64.self)
        let bytes = bitCount >> 3
        position &+= bytes
        bits = bits &>> UInt64(truncatingIfNeeded: bytes &<< 3)  // bitCount ≤ 63, so at most 56
        bitCount &= 7
    }

    /// Runs `body` on the stream's state in the form C shims take; call
    /// after a flush.
    mutating func withCStream<Result>(_ body: (inout facepipe_bit_stream) -> Result) -> Result {
        assert(bitCount <= 7)
        var stream = facepipe_bit_stream(base: base.assumingMemoryBound(to: UInt8.self), position: position,
                                         bits: bits, bit_count: UInt32(bitCount))
        let result = body(&stream)
        position = stream.position
        bits = stream.bits
        bitCount = Int(stream.bit_count)
        return result
    }

    /// Pads with zero bits to the next byte boundary.
    mutating func alignToByte() {
        flush()
        if bitCount > 0 {
            position += 1
            bits = 0
            bitCount = 0
        }
    }

    /// Copies `bytes` verbatim; the stream must be byte-aligned.
    mutating func writeAligned(_ bytes: UnsafeRawBufferPointer) {
        precondition(bitCount == 0 && position + bytes.count <= capacity)
        guard let source = bytes.baseAddress, bytes.count > 0 else { return }
        (base + position).copyMemory(from: source, byteCount: bytes.count)
        position += bytes.count
    }

    /// A big-endian 32-bit value; the stream must be byte-aligned.
    mutating func writeAlignedBigEndian(_ value: UInt32) {
        precondition(bitCount == 0 && position + 4 <= capacity)
        base.storeBytes(of: value.bigEndian, toByteOffset: position, as: UInt32.self)
        position += 4
    }
}
