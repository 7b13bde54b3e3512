/// A bounds-checked walk over a PNG's chunk list (libpng's simplified API
/// does not expose `eXIf`): finds the EXIF block and whether the file is
/// complete up to `IEND`.
struct PNGChunks {
    /// Byte range of the TIFF structure inside the first `eXIf` chunk.
    var exif: Range<Int>?
    /// The walk reached `IEND` without running out of data.
    var complete = false
    /// Where the data ran out, for the error message.
    var endedInside: String?
    /// Width and height from IHDR when it is the first chunk and complete.
    var headerSize: (width: Int, height: Int)?
    /// IHDR says 16 bits per sample and Adam7 interlacing.
    var isInterlaced16Bit = false

    init(scanning data: UnsafeRawBufferPointer) {
        var position = 8  // after the signature
        while true {
            guard position + 8 <= data.count else {
                endedInside = "chunk header at byte \(position)"
                return
            }
            let length = Int(Self.uint32(data, position))
            let type = (data[position + 4], data[position + 5], data[position + 6], data[position + 7])
            let dataStart = position + 8
            guard length <= Int(Int32.max), dataStart + length + 4 <= data.count else {
                endedInside = "\(Self.name(type)) chunk at byte \(position) declares \(length) bytes, \(max(0, data.count - dataStart)) remain"
                return
            }
            if position == 8, type == (0x49, 0x48, 0x44, 0x52), length >= 8 {  // IHDR
                headerSize = (Int(Self.uint32(data, dataStart)), Int(Self.uint32(data, dataStart + 4)))
                isInterlaced16Bit = length >= 13 && data[dataStart + 8] == 16 && data[dataStart + 12] == 1
            }
            switch type {
            case (0x49, 0x45, 0x4E, 0x44):  // IEND
                complete = true
                return
            case (0x65, 0x58, 0x49, 0x66) where exif == nil:  // eXIf
                var start = dataStart
                // Some writers keep JPEG's "Exif\0\0" prefix; the PNG spec does not.
                if length >= 6, (0..<6).allSatisfy({ data[dataStart + $0] == JPEGMarkers.exifSignature[$0] }) {
                    start += 6
                }
                exif = start..<(dataStart + length)
            default:
                break
            }
            position = dataStart + length + 4
        }
    }

    private static func uint32(_ data: UnsafeRawBufferPointer, _ offset: Int) -> UInt32 {
        UInt32(data[offset]) << 24 | UInt32(data[offset + 1]) << 16 | UInt32(data[offset + 2]) << 8 | UInt32(data[offset + 3])
    }

    private static func name(_ type: (UInt8, UInt8, UInt8, UInt8)) -> String {
        let bytes = [type.0, type.1, type.2, type.3]
        return bytes.allSatisfy({ (0x41...0x7A).contains($0) }) ? String(decoding: bytes, as: UTF8.self) : "unnamed"
    }
}
