/// Reads big-endian bit fields from a byte array (the codec configuration formats: AAC's AudioSpecificConfig,
/// FLAC's STREAMINFO). Every read is bounds-checked: nil past the end.
package struct BitReader {
    private let bytes: [UInt8]
    /// Bits read so far.
    package private(set) var position = 0

    package init(_ bytes: [UInt8]) { self.bytes = bytes }

    package var bitsLeft: Int { bytes.count * 8 - position }

    /// The next `count` bits (at most 64) as an unsigned number, or nil when fewer are left.
    package mutating func read(_ count: Int) -> UInt64? {
        guard count >= 0, count <= 64, count <= bitsLeft else { return nil }
        var value: UInt64 = 0
        for _ in 0..<count {
            let bit = (bytes[position >> 3] >> (7 - UInt8(position & 7))) & 1
            value = value << 1 | UInt64(bit)
            position += 1
        }
        return value
    }

    /// The next `count` bits without moving on.
    package func peek(_ count: Int) -> UInt64? {
        var copy = self
        return copy.read(count)
    }
}

/// Writes big-endian bit fields into bytes; the last byte is padded with zero bits.
package struct BitWriter {
    package private(set) var bytes: [UInt8] = []
    private var used = 0

    package init() {}

    package mutating func write(_ value: UInt64, bits count: Int) {
        for shift in stride(from: count - 1, through: 0, by: -1) {
            if used % 8 == 0 { bytes.append(0) }
            if (value >> UInt64(shift)) & 1 == 1 { bytes[bytes.count - 1] |= 0x80 >> UInt8(used % 8) }
            used += 1
        }
    }
}
