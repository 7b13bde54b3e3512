import ImageCore

/// Reads the Orientation tag (0x0112) from an EXIF block.
///
/// Input is the TIFF structure EXIF is made of (byte-order mark `II`/`MM`,
/// the number 42, the offset of IFD0, then IFDs), which is what a JPEG APP1
/// segment holds after `Exif\0\0` and what a PNG `eXIf` chunk holds.
/// Every offset is bounds-checked. Only IFD0 is read: the tag belongs there
/// (IFD1 describes the thumbnail), so the IFD chain is never followed and a
/// looping chain cannot make the parser spin. A malformed block never fails
/// the image: the result is `.topLeft` plus a warning saying what was wrong.
public enum ExifParser {
    /// The orientation found and the problems met on the way.
    public struct Result: Sendable, Equatable {
        /// `.topLeft` when the tag is absent or unreadable.
        public var orientation: ExifOrientation
        public var warnings: [String]
    }

    static let orientationTag: UInt16 = 0x0112

    /// Parses a TIFF-structured EXIF block (no `Exif\0\0` prefix).
    public static func orientation(fromTIFF tiff: UnsafeRawBufferPointer) -> Result {
        var warnings: [String] = []
        let orientation = readOrientation(tiff, warnings: &warnings)
        return Result(orientation: orientation ?? .topLeft, warnings: warnings)
    }

    /// Convenience over bytes held in an array.
    public static func orientation(fromTIFF tiff: [UInt8]) -> Result {
        tiff.withUnsafeBytes { orientation(fromTIFF: $0) }
    }

    private static func readOrientation(_ tiff: UnsafeRawBufferPointer, warnings: inout [String]) -> ExifOrientation? {
        guard tiff.count >= 8 else {
            warnings.append("EXIF: block of \(tiff.count) bytes is shorter than a TIFF header; orientation 1 assumed")
            return nil
        }
        let reader: TIFFReader
        switch (tiff[0], tiff[1]) {
        case (0x49, 0x49): reader = TIFFReader(bytes: tiff, bigEndian: false)
        case (0x4D, 0x4D): reader = TIFFReader(bytes: tiff, bigEndian: true)
        default:
            warnings.append("EXIF: unknown byte order mark \(ImageDecodeError.describe([tiff[0], tiff[1]])); orientation 1 assumed")
            return nil
        }
        guard reader.uint16(at: 2) == 42 else {
            warnings.append("EXIF: TIFF magic number is not 42; orientation 1 assumed")
            return nil
        }
        guard let ifdOffset = reader.uint32(at: 4).map(Int.init), let entryCount = reader.uint16(at: ifdOffset) else {
            warnings.append("EXIF: IFD0 offset points outside the \(tiff.count)-byte block; orientation 1 assumed")
            return nil
        }
        var found: ExifOrientation?
        // Orientation entries that could not be read, each with why; what
        // became of the orientation is said once it is known.
        var unread: [String] = []
        func unreadOutcome() -> String { found.map { "ignored: another Orientation tag gives \($0.rawValue)" } ?? "orientation 1 assumed" }
        for index in 0..<Int(entryCount) {
            let entry = ifdOffset + 2 + 12 * index
            guard let tag = reader.uint16(at: entry), let type = reader.uint16(at: entry + 2),
                  let count = reader.uint32(at: entry + 4) else {
                warnings += unread.map { "\($0); \(unreadOutcome())" }
                warnings.append("EXIF: IFD0 declares \(entryCount) entries but the block ends after \(index); "
                                + (found == nil ? "orientation 1 assumed" : "the Orientation tag read before it is kept"))
                return found
            }
            guard tag == orientationTag else { continue }
            if found != nil {
                warnings.append("EXIF: duplicate Orientation tag ignored")
                continue
            }
            let value: UInt32?
            switch type {
            case 3: value = reader.uint16(at: entry + 8).map(UInt32.init)  // SHORT, the type the standard requires
            case 4: value = reader.uint32(at: entry + 8)  // LONG, written by some tools
            default:
                unread.append("EXIF: Orientation tag has type \(type), expected SHORT (3)")
                continue
            }
            guard count >= 1, let value else {
                unread.append("EXIF: Orientation tag holds no value")
                continue
            }
            guard let orientation = ExifOrientation(rawValue: Int(value)) else {
                unread.append("EXIF: Orientation value \(value) is outside 1...8")
                continue
            }
            found = orientation
        }
        warnings += unread.map { "\($0); \(unreadOutcome())" }
        return found
    }
}

/// Bounds-checked integer reads from a TIFF block in its declared byte order.
struct TIFFReader {
    let bytes: UnsafeRawBufferPointer
    let bigEndian: Bool

    func uint16(at offset: Int) -> UInt16? {
        guard offset >= 0, offset <= bytes.count - 2 else { return nil }
        let a = UInt16(bytes[offset]), b = UInt16(bytes[offset + 1])
        return bigEndian ? a << 8 | b : b << 8 | a
    }

    func uint32(at offset: Int) -> UInt32? {
        guard let first = uint16(at: offset), let second = uint16(at: offset + 2) else { return nil }
        return bigEndian ? UInt32(first) << 16 | UInt32(second) : UInt32(second) << 16 | UInt32(first)
    }
}
