/// Builds a minimal zip (stored members, no compression) to check that the
/// reader also takes zip archives.
public struct ZipBuilder {
    public init() {}

    private var body: [UInt8] = []
    private var central: [UInt8] = []
    private var count = 0

    /// `encrypted` sets the traditional-encryption flag (the bytes are not
    /// encrypted: a reader must refuse the member, not decode it); `method`
    /// is the compression method (0 = stored; 97 = WavPack, which no reader takes).
    public mutating func add(name: String, data: [UInt8], encrypted: Bool = false, method: UInt16 = 0) {
        let nameBytes = Array(name.utf8)
        let crc = Self.crc32(data)
        let offset = body.count
        let flags: UInt16 = 0x0800 | (encrypted ? 0x0001 : 0)
        body += le32(0x0403_4B50) + le16(20) + le16(flags) + le16(method) + le16(0) + le16(0x21)
        body += le32(crc) + le32(UInt32(data.count)) + le32(UInt32(data.count)) + le16(UInt16(nameBytes.count)) + le16(0)
        body += nameBytes + data
        central += le32(0x0201_4B50) + le16(20) + le16(20) + le16(flags) + le16(method) + le16(0) + le16(0x21)
        central += le32(crc) + le32(UInt32(data.count)) + le32(UInt32(data.count)) + le16(UInt16(nameBytes.count))
        central += le16(0) + le16(0) + le16(0) + le16(0) + le32(0o100644 << 16) + le32(UInt32(offset)) + nameBytes
        count += 1
    }

    public var bytes: [UInt8] {
        body + central + le32(0x0605_4B50) + le16(0) + le16(0) + le16(UInt16(count)) + le16(UInt16(count))
            + le32(UInt32(central.count)) + le32(UInt32(body.count)) + le16(0)
    }

    private func le16(_ v: UInt16) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8)] }
    private func le32(_ v: UInt32) -> [UInt8] { (0..<4).map { UInt8((v >> (8 * $0)) & 0xFF) } }

    public static func crc32(_ data: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in data {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = (crc & 1) != 0 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }
}
