import CFacepipeShims

/// CRC-32 as PNG chunks and zlib/gzip use it (ISO 3309 / ITU-T V.42:
/// reflected polynomial 0xEDB88320, initial value and final XOR 0xFFFFFFFF).
///
/// Runs of 64 bytes and more are folded with carry-less multiplication
/// (`facepipe_crc32_fold`, when the CPU has PCLMULQDQ: about ten times the
/// table's speed); the rest goes through slicing-by-8, whose eight 256-entry
/// tables let the loop consume eight bytes per step with independent lookups.
package struct CRC32: Sendable {
    /// The CRC of everything fed so far.
    package var value: UInt32 { ~state }
    private var state: UInt32 = 0xFFFF_FFFF

    package init() {}

    /// The CRC-32 of `bytes` in one call.
    package static func checksum(_ bytes: UnsafeRawBufferPointer) -> UInt32 {
        var crc = CRC32()
        crc.update(bytes)
        return crc.value
    }

    package static func checksum(_ bytes: [UInt8]) -> UInt32 {
        bytes.withUnsafeBytes { checksum($0) }
    }

    /// Feeds `bytes` (may be empty).
    package mutating func update(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return }
        let folded = facepipe_crc32_fold(&state, base.assumingMemoryBound(to: UInt8.self), bytes.count)
        updateWithTables(UnsafeRawBufferPointer(rebasing: bytes[folded...]))
    }

    /// Feeds `bytes` through the tables only (the reference the folding is tested against).
    package mutating func updateWithTables(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return }
        state = Self.tables.withUnsafeBufferPointer { tables in
            Self.update(state, base, bytes.count, tables.baseAddress!)
        }
    }

    @inline(__always)
    private static func update(_ initial: UInt32, _ base: UnsafeRawPointer, _ count: Int,
                               _ t: UnsafePointer<UInt32>) -> UInt32 {
        var crc = initial
        var p = 0
        while p + 8 <= count {
            let word = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: p, as: UInt64.self))
            let low = UInt32(truncatingIfNeeded: word) ^ crc
            let high = UInt32(truncatingIfNeeded: word >> 32)
            crc = t[7 * 256 + Int(low & 0xFF)] ^ t[6 * 256 + Int((low >> 8) & 0xFF)]
                ^ t[5 * 256 + Int((low >> 16) & 0xFF)] ^ t[4 * 256 + Int(low >> 24)]
                ^ t[3 * 256 + Int(high & 0xFF)] ^ t[2 * 256 + Int((high >> 8) & 0xFF)]
                ^ t[1 * 256 + Int((high >> 16) & 0xFF)] ^ t[Int(high >> 24)]
            p += 8
        }
        while p < count {
            crc = t[Int((crc ^ UInt32(base.load(fromByteOffset: p, as: UInt8.self))) & 0xFF)] ^ (crc >> 8)
            p += 1
        }
        return crc
    }

    /// Table k maps a byte to its CRC contribution when followed by k zero bytes.
    private static let tables: [UInt32] = {
        var tables = [UInt32](repeating: 0, count: 8 * 256)
        for byte in 0..<256 {
            var crc = UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
            tables[byte] = crc
        }
        for slice in 1..<8 {
            for byte in 0..<256 {
                let previous = tables[(slice - 1) * 256 + byte]
                tables[slice * 256 + byte] = (previous >> 8) ^ tables[Int(previous & 0xFF)]
            }
        }
        return tables
    }()
}
