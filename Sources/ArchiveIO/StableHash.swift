/// FNV-1a, 64-bit: a tiny, documented, stable hash (not cryptographic). Used to
/// tell sanitised output names apart; its values must never change.
package enum StableHash {
    package static func fnv1a64<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01b3
        }
        return hash
    }

    /// The low 48 bits of FNV-1a-64 as 12 lowercase hex digits.
    package static func shortHex<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> String {
        let value = fnv1a64(bytes) & 0xFFFF_FFFF_FFFF
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 12 - digits.count) + digits
    }
}
