/// Where a Matroska file's Segment says it ends: the EBML header element, then the Segment's ID and size.
/// A file shorter than that was cut (FFmpeg's demuxer ends such a file quietly, as if complete).
enum MatroskaSegmentEnd {
    /// The byte offset just past the Segment, or nil when the prefix does not say (an unknown size, as live
    /// recordings write, or a header longer than the prefix).
    static func offset(in prefix: [UInt8]) -> Int64? {
        var position = 0
        // The EBML header: ID 1A 45 DF A3, its size, its body.
        guard readID(prefix, &position) == 0x1A45_DFA3, let headerSize = readSize(prefix, &position) else { return nil }
        let (afterHeader, overflow) = Int64(position).addingReportingOverflow(headerSize)
        guard !overflow, afterHeader < Int64(prefix.count) else { return nil }
        position = Int(afterHeader)
        guard readID(prefix, &position) == 0x1853_8067, let segmentSize = readSize(prefix, &position) else { return nil }
        let (end, endOverflow) = Int64(position).addingReportingOverflow(segmentSize)
        return endOverflow ? nil : end
    }

    /// An element ID (1 to 4 bytes, length marker kept).
    private static func readID(_ bytes: [UInt8], _ position: inout Int) -> UInt32? {
        guard position < bytes.count, bytes[position] != 0 else { return nil }
        let length = bytes[position].leadingZeroBitCount + 1
        guard length <= 4, position + length <= bytes.count else { return nil }
        let id = bytes[position..<(position + length)].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        position += length
        return id
    }

    /// An element size (1 to 8 bytes, length marker removed); nil for the reserved "unknown" value.
    private static func readSize(_ bytes: [UInt8], _ position: inout Int) -> Int64? {
        guard position < bytes.count, bytes[position] != 0 else { return nil }
        let length = bytes[position].leadingZeroBitCount + 1
        guard position + length <= bytes.count else { return nil }
        var value = UInt64(bytes[position] & (0xFF >> length))
        for byte in bytes[(position + 1)..<(position + length)] { value = value << 8 | UInt64(byte) }
        position += length
        let unknown = (UInt64(1) << (7 * length)) - 1
        guard value != unknown, value <= UInt64(Int64.max) else { return nil }
        return Int64(value)
    }
}
