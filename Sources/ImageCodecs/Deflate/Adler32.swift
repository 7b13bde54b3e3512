/// Adler-32 (RFC 1950 §8.2): the checksum at the end of a zlib stream.
///
/// Vectorized: 16-byte chunks are summed per lane. For a run of k chunks
/// (N = 16k bytes) starting from sums (a, b):
///   a' = a + Σ bytes
///   b' = b + N·a + Σ_u (N − u)·byte[u]
/// and Σ (N − u)·byte[u] = 16·Σ_lanes(prefix sums of lane totals) − Σ_i i·lane_i.
/// Lanes are 32-bit, so a run is at most `chunksPerRun` chunks (no overflow)
/// before both sums are reduced modulo 65521.
package struct Adler32: Sendable {
    private var a: UInt32 = 1
    private var b: UInt32 = 0

    package init() {}

    /// The checksum of everything fed so far.
    package var value: UInt32 { b << 16 | a }

    package static func checksum(_ bytes: [UInt8]) -> UInt32 {
        var adler = Adler32()
        bytes.withUnsafeBytes { adler.update($0) }
        return adler.value
    }

    private static let modulus: UInt32 = 65521
    /// 255 · k(k+1)/2 < 2^32 for k = 4096, the bound of the prefix-sum lanes.
    private static let chunksPerRun = 4096

    /// Feeds `bytes` (may be empty).
    package mutating func update(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress else { return }
        let count = bytes.count
        var position = 0
        var a = UInt64(self.a), b = UInt64(self.b)
        let modulus = UInt64(Self.modulus)
        while count - position >= 16 {
            let chunks = min((count - position) / 16, Self.chunksPerRun)
            var laneSums = SIMD16<UInt32>(repeating: 0)
            var prefixSums = SIMD16<UInt32>(repeating: 0)
            let start = base + position
            for chunk in 0..<chunks {
                let bytes = start.loadUnaligned(fromByteOffset: chunk * 16, as: SIMD16<UInt8>.self)
                laneSums &+= SIMD16<UInt32>(truncatingIfNeeded: bytes)
                prefixSums &+= laneSums
            }
            let length = UInt64(chunks * 16)
            var weighted: UInt64 = 0
            var total: UInt64 = 0
            for lane in 0..<16 {
                total += UInt64(laneSums[lane])
                weighted += UInt64(lane) * UInt64(laneSums[lane])
            }
            var prefix64: UInt64 = 0
            for lane in 0..<16 { prefix64 += UInt64(prefixSums[lane]) }
            b = (b + length * a + 16 * prefix64 - weighted) % modulus
            a = (a + total) % modulus
            position += chunks * 16
        }
        while position < count {
            a += UInt64(base.load(fromByteOffset: position, as: UInt8.self))
            b += a
            position += 1
        }
        self.a = UInt32(a % modulus)
        self.b = UInt32(b % modulus)
    }
}
