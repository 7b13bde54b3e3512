/// A structure-aware mutation for `fuzz-video`: finds the length fields of an MP4/MOV (ISO media boxes:
/// a 32-bit size, or 1 and a 64-bit size after the type) or a Matroska/WebM file (EBML elements: an ID
/// and a variable-length size) and changes one, or repeats, drops or moves the element it measures.
/// Byte-level mutation rarely keeps such a file readable far enough to reach these fields' consumers;
/// this reaches them from the first mutation (a size one too large, the size of the parent, "unknown",
/// a chunk written twice, as a damaged download has them).
enum ContainerLengthMutator {
    /// One length field: where it is, how wide, what it says, and the element it measures.
    struct Field {
        var offset: Int
        var width: Int
        var value: UInt64
        /// The element: its first byte (the ID or size field) and one past its end, as declared (clamped).
        var elementStart: Int
        var elementEnd: Int
        var matroska: Bool
    }

    /// Changes `bytes` (at most `maxSize` long); false when no length field was found.
    static func mutate(_ bytes: inout [UInt8], maxSize: Int, random: inout SplitMix64) -> Bool {
        let fields = bytes.count >= 8 && Array(bytes[0..<4]) == [0x1A, 0x45, 0xDF, 0xA3]
            ? matroskaFields(bytes, from: 0, to: bytes.count, depth: 0)
            : isoFields(bytes, from: 0, to: bytes.count, depth: 0)
        guard !fields.isEmpty else { return false }
        let field = fields[Int(random.next() % UInt64(fields.count))]
        let element = Array(bytes[field.elementStart..<field.elementEnd])
        switch random.next() % 8 {
        case 0:  // the chunk written twice
            guard bytes.count + element.count <= maxSize else { return false }
            bytes.insert(contentsOf: element, at: field.elementEnd)
        case 1:  // the element dropped
            bytes.removeSubrange(field.elementStart..<field.elementEnd)
        case 2:  // the element moved to the end
            bytes.removeSubrange(field.elementStart..<field.elementEnd)
            bytes += element
        default:
            let maximum: UInt64 = field.matroska ? (UInt64(1) << (7 * UInt64(field.width))) - 2 : UInt64(UInt32.max)
            let candidates: [UInt64] = [
                0, 1, field.value &+ 1, field.value &- 1, field.value &+ UInt64(random.next() % 4096),
                field.value / 2, field.value &* 2, UInt64(bytes.count - field.elementStart), maximum,
                field.matroska ? maximum + 1 : 8,  // Matroska's "unknown size"; a box of only its header
            ]
            write(candidates[Int(random.next() % UInt64(candidates.count))] & (maximum | 1), into: &bytes, field)
        }
        return true
    }

    /// Boxes that hold boxes (whose sizes are fields too).
    private static let isoContainers: Set<String> = ["moov", "trak", "mdia", "minf", "stbl", "edts", "dinf", "udta",
                                                    "mvex", "moof", "traf", "mfra", "meta", "ilst", "sinf", "schi"]

    static func isoFields(_ bytes: [UInt8], from start: Int, to end: Int, depth: Int) -> [Field] {
        var fields: [Field] = []
        var position = start
        while position + 8 <= end, depth < 8 {
            var size = UInt64(bytes[position..<(position + 4)].reduce(UInt32(0)) { $0 << 8 | UInt32($1) })
            var field = Field(offset: position, width: 4, value: size, elementStart: position, elementEnd: end, matroska: false)
            var header = 8
            if size == 1, position + 16 <= end {
                size = bytes[(position + 8)..<(position + 16)].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
                (field.offset, field.width, field.value, header) = (position + 8, 8, size, 16)
            }
            // A 64-bit size can run past UInt64 from the box's position: such a box ends with the input.
            let (sum, overflow) = UInt64(position).addingReportingOverflow(size)
            let declaredEnd = size == 0 || overflow ? UInt64(end) : sum
            field.elementEnd = Int(min(max(declaredEnd, UInt64(position + header)), UInt64(end)))
            fields.append(field)
            let type = String(decoding: bytes[(position + 4)..<(position + 8)], as: UTF8.self)
            if isoContainers.contains(type) {
                // `meta` has a version and flags before its boxes.
                let inner = position + header + (type == "meta" ? 4 : 0)
                fields += isoFields(bytes, from: inner, to: field.elementEnd, depth: depth + 1)
            }
            guard field.elementEnd > position else { break }
            position = field.elementEnd
        }
        return fields
    }

    /// Matroska elements that hold elements: EBML header, Segment, SeekHead, Seek, Info, Tracks, TrackEntry,
    /// Video, Audio, Cluster, BlockGroup, Cues, CuePoint, CueTrackPositions, Tags, Tag, Chapters, Attachments.
    private static let matroskaMasters: Set<UInt32> = [0x1A45_DFA3, 0x1853_8067, 0x114D_9B74, 0x4DBB, 0x1549_A966,
                                                       0x1654_AE6B, 0xAE, 0xE0, 0xE1, 0x1F43_B675, 0xA0, 0x1C53_BB6B,
                                                       0xBB, 0xB7, 0x1254_C367, 0x7373, 0x1043_A770, 0x1941_A469]

    static func matroskaFields(_ bytes: [UInt8], from start: Int, to end: Int, depth: Int) -> [Field] {
        var fields: [Field] = []
        var position = start
        while position < end, depth < 8 {
            let idLength = bytes[position].leadingZeroBitCount + 1
            guard idLength <= 4, position + idLength < end else { break }
            let id = bytes[position..<(position + idLength)].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
            let sizeAt = position + idLength
            let width = bytes[sizeAt].leadingZeroBitCount + 1
            guard width <= 8, sizeAt + width <= end else { break }
            var value = UInt64(bytes[sizeAt] & UInt8(truncatingIfNeeded: 0xFF >> width))
            for byte in bytes[(sizeAt + 1)..<(sizeAt + width)] { value = value << 8 | UInt64(byte) }
            let bodyStart = sizeAt + width
            let unknown = value == (UInt64(1) << (7 * UInt64(width))) - 1
            let bodyEnd = unknown ? end : Int(min(UInt64(bodyStart) + min(value, UInt64(Int32.max)), UInt64(end)))
            fields.append(Field(offset: sizeAt, width: width, value: value, elementStart: position, elementEnd: bodyEnd,
                                matroska: true))
            if matroskaMasters.contains(id) {
                fields += matroskaFields(bytes, from: bodyStart, to: bodyEnd, depth: depth + 1)
            }
            guard bodyEnd > position else { break }
            position = bodyEnd
        }
        return fields
    }

    /// Writes `value` into the field, in its own width and encoding.
    private static func write(_ value: UInt64, into bytes: inout [UInt8], _ field: Field) {
        var rest = value
        for index in stride(from: field.offset + field.width - 1, through: field.offset, by: -1) {
            bytes[index] = UInt8(truncatingIfNeeded: rest)
            rest >>= 8
        }
        if field.matroska { bytes[field.offset] = bytes[field.offset] & (0xFF >> field.width) | (0x80 >> (field.width - 1)) }
    }
}

/// A small seeded generator (SplitMix64): the mutation is a function of libFuzzer's seed, so a run replays.
struct SplitMix64 {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
