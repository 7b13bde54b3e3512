import _TestSupport

/// Builds ustar bytes header by header, for names and sizes a well-behaved
/// writer would refuse (raw non-UTF-8 names, `../`, lying sizes, bad checksums).
struct UstarBuilder {
    private(set) var bytes: [UInt8] = []
    /// Byte offset of each header appended so far.
    private(set) var headerOffsets: [Int] = []

    /// Appends a header with `rawName` (≤ 100 bytes) and `typeFlag` ("0" file,
    /// "5" directory, "2" symlink…), then `data` padded to 512 bytes.
    /// `declaredSize` defaults to `data.count`.
    mutating func append(rawName: [UInt8], data: [UInt8] = [], typeFlag: UInt8 = UInt8(ascii: "0"), declaredSize: Int? = nil, corruptChecksum: Bool = false) {
        precondition(rawName.count <= 100)
        var header = [UInt8](repeating: 0, count: 512)
        header.replaceSubrange(0..<rawName.count, with: rawName)
        put(octal: 0o644, width: 8, at: 100, in: &header)
        put(octal: 0, width: 8, at: 108, in: &header)
        put(octal: 0, width: 8, at: 116, in: &header)
        put(octal: declaredSize ?? data.count, width: 12, at: 124, in: &header)
        put(octal: 0, width: 12, at: 136, in: &header)
        header[156] = typeFlag
        header.replaceSubrange(257..<263, with: Array("ustar\0".utf8))
        header.replaceSubrange(263..<265, with: Array("00".utf8))
        for i in 148..<156 { header[i] = 0x20 }
        var sum = header.reduce(0) { $0 + Int($1) }
        if corruptChecksum { sum += 1 }
        put(octal: sum, width: 7, at: 148, in: &header)
        header[155] = 0x20
        headerOffsets.append(bytes.count)
        bytes += header
        bytes += data
        bytes += [UInt8](repeating: 0, count: (512 - data.count % 512) % 512)
    }

    /// Appends the two zero blocks that end a tar archive.
    mutating func finish() {
        bytes += [UInt8](repeating: 0, count: 1024)
    }

    private func put(octal value: Int, width: Int, at offset: Int, in header: inout [UInt8]) {
        let digits = Array(String(value, radix: 8).utf8)
        let padded = [UInt8](repeating: UInt8(ascii: "0"), count: width - 1 - digits.count) + digits
        header.replaceSubrange(offset..<offset + width - 1, with: padded)
        header[offset + width - 1] = 0
    }
}

extension Array where Element == UInt8 {
    /// `count` incompressible bytes from `seed`.
    static func random(count: Int, seed: UInt64) -> [UInt8] {
        var generator = SplitMix64(seed: seed)
        var out = [UInt8]()
        out.reserveCapacity(count + 8)
        while out.count < count {
            Swift.withUnsafeBytes(of: generator.next().littleEndian) { out += $0 }
        }
        return Array(out.prefix(count))
    }
}

extension UstarBuilder {
    /// Appends a pax extended header ("x") carrying `records`, as Python's
    /// tarfile and GNU tar write for UTF-8 or long names.
    mutating func appendPax(_ records: [(String, String)]) {
        var body: [UInt8] = []
        for (key, value) in records {
            let payload = " \(key)=\(value)\n"
            var length = payload.utf8.count + 1
            while "\(length)".utf8.count + payload.utf8.count != length { length += 1 }
            body += Array("\(length)\(payload)".utf8)
        }
        append(rawName: Array("PaxHeaders/x".utf8), data: body, typeFlag: UInt8(ascii: "x"))
    }
}
