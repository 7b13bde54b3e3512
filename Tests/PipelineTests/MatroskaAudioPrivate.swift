import Foundation

/// Rewrites the codec configuration (CodecPrivate, EBML ID 63 A2) of the
/// audio track of a Matroska file that ffmpeg wrote with `-live 1` (a
/// Segment of unknown size and no Cues, so nothing after the track list
/// points at an offset): the hostile inputs of the audio tests. The
/// SeekHead is replaced by a Void element of its size; every other element
/// is copied as it is.
enum MatroskaAudioPrivate {
    struct Malformed: Error, CustomStringConvertible { let description: String }

    private struct Element {
        var id: UInt32, start: Int, bodyStart: Int, end: Int
    }

    /// `bytes` with the audio track's CodecPrivate body replaced by `change(old)`.
    static func replacing(in bytes: [UInt8], _ change: ([UInt8]) -> [UInt8]) throws -> [UInt8] {
        var position = 0
        let header = try element(bytes, &position, within: bytes.count)
        var out = Array(bytes[header.start..<header.end])
        position = header.end
        let segment = try element(bytes, &position, within: bytes.count)
        guard segment.id == 0x1853_8067, segment.end == bytes.count else { throw Malformed(description: "not a live Segment") }
        out += bytes[segment.start..<segment.bodyStart]
        position = segment.bodyStart
        var changed = false
        while position < bytes.count {
            let child = try element(bytes, &position, within: bytes.count)
            position = child.end
            switch child.id {
            case 0x114D_9B74:   // SeekHead: its offsets would be wrong
                let length = child.end - child.start
                out.append(0xEC)
                out += size(length - 9)
                out += [UInt8](repeating: 0, count: length - 9)
            case 0x1654_AE6B:   // Tracks
                var body: [UInt8] = []
                var inner = child.bodyStart
                while inner < child.end {
                    let entry = try element(bytes, &inner, within: child.end)
                    inner = entry.end
                    guard entry.id == 0xAE else {
                        body += bytes[entry.start..<entry.end]
                        continue
                    }
                    var fields: [(id: UInt32, body: [UInt8])] = []
                    var field = entry.bodyStart
                    while field < entry.end {
                        let part = try element(bytes, &field, within: entry.end)
                        field = part.end
                        fields.append((part.id, Array(bytes[part.bodyStart..<part.end])))
                    }
                    if fields.contains(where: { $0.id == 0x83 && $0.body == [2] }) {
                        let existing: [UInt8]? = fields.first(where: { $0.id == 0x63A2 }).map { $0.body }
                        fields.removeAll { $0.id == 0x63A2 }
                        let replaced: [UInt8] = change(existing ?? [])
                        fields.append((id: UInt32(0x63A2), body: replaced))
                        changed = true
                    }
                    body += master(0xAE, fields.flatMap { master($0.id, $0.body) })
                }
                out += master(0x1654_AE6B, body)
            default:
                out += bytes[child.start..<child.end]
            }
        }
        guard changed else { throw Malformed(description: "no audio track") }
        return out
    }

    private static func element(_ bytes: [UInt8], _ position: inout Int, within end: Int) throws -> Element {
        let start = position
        guard position < end, bytes[position] != 0 else { throw Malformed(description: "bad ID at \(position)") }
        let idLength = bytes[position].leadingZeroBitCount + 1
        let id = bytes[position..<(position + idLength)].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        position += idLength
        guard position < end, bytes[position] != 0 else { throw Malformed(description: "bad size at \(position)") }
        let sizeLength = bytes[position].leadingZeroBitCount + 1
        var value = UInt64(bytes[position] & (0xFF >> sizeLength))
        for byte in bytes[(position + 1)..<(position + sizeLength)] { value = value << 8 | UInt64(byte) }
        position += sizeLength
        let unknown = value == (UInt64(1) << (7 * sizeLength)) - 1
        let bodyEnd = unknown ? end : position + Int(value)
        guard bodyEnd <= end else { throw Malformed(description: "element at \(start) ends past its parent") }
        return Element(id: id, start: start, bodyStart: position, end: bodyEnd)
    }

    /// An 8-byte EBML size.
    private static func size(_ value: Int) -> [UInt8] {
        var bytes: [UInt8] = [0x01]
        for shift in stride(from: 48, through: 0, by: -8) { bytes.append(UInt8((value >> shift) & 0xFF)) }
        return bytes
    }

    private static func master(_ id: UInt32, _ body: [UInt8]) -> [UInt8] {
        var idBytes: [UInt8] = []
        for shift in stride(from: 24, through: 0, by: -8) {
            let byte = UInt8((id >> UInt32(shift)) & 0xFF)
            if byte != 0 || !idBytes.isEmpty { idBytes.append(byte) }
        }
        return idBytes + size(body.count) + body
    }

    // MARK: Codec configurations

    /// The three Vorbis headers of a Xiph-laced CodecPrivate.
    static func vorbisHeaders(_ codecPrivate: [UInt8]) throws -> [[UInt8]] {
        guard codecPrivate.first == 2 else { throw Malformed(description: "not Xiph-laced") }
        var position = 1
        var sizes: [Int] = []
        for _ in 0..<2 {
            var size = 0
            while codecPrivate[position] == 255 { size += 255; position += 1 }
            size += Int(codecPrivate[position])
            position += 1
            sizes.append(size)
        }
        let first = Array(codecPrivate[position..<(position + sizes[0])])
        let second = Array(codecPrivate[(position + sizes[0])..<(position + sizes[0] + sizes[1])])
        return [first, second, Array(codecPrivate[(position + sizes[0] + sizes[1])...])]
    }

    /// Three Vorbis headers, Xiph-laced.
    static func vorbisPrivate(_ headers: [[UInt8]]) -> [UInt8] {
        func lace(_ count: Int) -> [UInt8] { [UInt8](repeating: 255, count: count / 255) + [UInt8(count % 255)] }
        var out: [UInt8] = [2]
        out += lace(headers[0].count)
        out += lace(headers[1].count)
        for header in headers { out += header }
        return out
    }

    static func littleEndian32(_ value: Int) -> [UInt8] { [0, 8, 16, 24].map { (shift: Int) -> UInt8 in UInt8((value >> shift) & 0xFF) } }
    static func bigEndian32(_ value: Int) -> [UInt8] { [24, 16, 8, 0].map { (shift: Int) -> UInt8 in UInt8((value >> shift) & 0xFF) } }

    /// A Vorbis comment list (`vendor`, then each `KEY=value`), as in a Vorbis comment header or a FLAC
    /// VORBIS_COMMENT block (which has no framing bit).
    static func comments(vendor: String, _ fields: [String]) -> [UInt8] {
        var out: [UInt8] = littleEndian32(vendor.utf8.count)
        out += Array(vendor.utf8)
        out += littleEndian32(fields.count)
        for field in fields {
            out += littleEndian32(field.utf8.count)
            out += Array(field.utf8)
        }
        return out
    }

    /// A FLAC PICTURE block's body (also METADATA_BLOCK_PICTURE's value before base64): a front cover JPEG.
    static func picture(jpeg: [UInt8]) -> [UInt8] {
        let mime = Array("image/jpeg".utf8), description = Array("face".utf8)
        var out: [UInt8] = bigEndian32(3)
        out += bigEndian32(mime.count)
        out += mime
        out += bigEndian32(description.count)
        out += description
        for number in [96, 96, 24, 0, jpeg.count] { out += bigEndian32(number) }
        out += jpeg
        return out
    }
}
