/// Formats that other programs (Pillow, libvips, browsers, image viewers,
/// video players) show as pictures and facepipe does not decode, recognised
/// by content, never by name. A member in one of them may hold a face that
/// facepipe cannot find or redact, so whatever copies data on (the redacted
/// shards) must not copy it.
///
/// The sniff errs towards "image": a text that starts `P1 ` (a PBM header)
/// or contains `<svg` counts. Formats without a signature are judged by
/// their header: TGA by its field ranges (a text never has a colour-map type
/// of 0 or 1 in its second byte), PCX by its version, encoding and depth.
/// Text that embeds a picture counts too: SVG markup (after any BOM, XML
/// prolog or whitespace, in UTF-8 or UTF-16), a `data:image/` URI, or the
/// base64 start of a JPEG or PNG.
public struct ImageLikeFormat: Sendable, Equatable, CustomStringConvertible {
    /// The format's usual name (`PPM`, `QOI`, `SVG`…).
    public let name: String
    public var description: String { name }

    /// The format `bytes` are in, or nil when nothing in them looks like a picture.
    public init?(sniffing bytes: [UInt8]) {
        guard let name = Self.signatureName(bytes) ?? Self.headerName(bytes) ?? Self.embeddedName(bytes) else { return nil }
        self.name = name
    }

    // MARK: - Signatures

    /// Magic bytes at a fixed offset, with the format's name.
    private static let signatures: [(offset: Int, magic: [UInt8], name: String)] = {
        func ascii(_ text: String) -> [UInt8] { Array(text.utf8) }
        return [
            (0, [0xFF, 0xD8, 0xFF], "JPEG"),
            (0, [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A], "PNG"),
            (0, [0x8A, 0x4D, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A], "MNG"),
            (0, [0x8B, 0x4A, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A], "JNG"),
            (0, ascii("GIF8"), "GIF"),
            (0, ascii("qoif"), "QOI"),
            (0, ascii("farbfeld"), "farbfeld"),
            (0, ascii("8BPS"), "PSD"),
            (0, ascii("DDS "), "DDS"),
            (0, [0x76, 0x2F, 0x31, 0x01], "OpenEXR"),
            (0, [0x00, 0x00, 0x01, 0x00], "ICO"),
            (0, [0x00, 0x00, 0x02, 0x00], "CUR"),
            (0, ascii("icns"), "ICNS"),
            (0, [0x59, 0xA6, 0x6A, 0x95], "Sun raster"),
            (0, [0x01, 0xDA], "SGI"),
            (0, [0x49, 0x49, 0x2A, 0x00], "TIFF"),
            (0, [0x4D, 0x4D, 0x00, 0x2A], "TIFF"),
            (0, [0x49, 0x49, 0x2B, 0x00], "BigTIFF"),
            (0, [0x4D, 0x4D, 0x00, 0x2B], "BigTIFF"),
            (0, [0x49, 0x49, 0x55, 0x00], "Panasonic raw"),
            (0, ascii("IIRO"), "Olympus raw"),
            (0, ascii("IIRS"), "Olympus raw"),
            (0, ascii("MMOR"), "Olympus raw"),
            (0, ascii("FUJIFILMCCD-RAW"), "Fujifilm raw"),
            (6, ascii("HEAPCCDR"), "Canon raw"),
            (0, [0x49, 0x49, 0xBC], "JPEG XR"),
            (0, [0x00, 0x00, 0x00, 0x0C, 0x6A, 0x50, 0x20, 0x20, 0x0D, 0x0A, 0x87, 0x0A], "JPEG 2000"),
            (0, [0xFF, 0x4F, 0xFF, 0x51], "JPEG 2000 codestream"),
            (0, [0xFF, 0x0A], "JPEG XL"),
            (0, [0x00, 0x00, 0x00, 0x0C, 0x4A, 0x58, 0x4C, 0x20, 0x0D, 0x0A, 0x87, 0x0A], "JPEG XL"),
            (4, ascii("ftyp"), "ISO media (HEIF, AVIF, MP4, MOV…)"),
            (0, [0x1A, 0x45, 0xDF, 0xA3], "Matroska/WebM"),
            (0, [0x00, 0x00, 0x01, 0xBA], "MPEG video"),
            (0, [0x00, 0x00, 0x01, 0xB3], "MPEG video"),
            (0, ascii("FLIF"), "FLIF"),
            (0, [0x42, 0x50, 0x47, 0xFB], "BPG"),
            (0, ascii("gimp xcf"), "GIMP XCF"),
            (0, ascii("SIMPLE  ="), "FITS"),
            (128, ascii("DICM"), "DICOM"),
            (0, ascii("%PDF-"), "PDF"),
            (0, ascii("%!PS"), "PostScript"),
            (0, [0xC5, 0xD0, 0xD3, 0xC6], "EPS"),
            (0, [0xD7, 0xCD, 0xC6, 0x9A], "WMF"),
            (40, ascii(" EMF"), "EMF"),
            (0, ascii("#?RADIANCE"), "Radiance HDR"),
            (0, ascii("#?RGBE"), "Radiance HDR"),
            (0, ascii("SDPX"), "DPX"),
            (0, ascii("XPDS"), "DPX"),
            (0, [0x80, 0x2A, 0x5F, 0xD7], "Cineon"),
            (0, ascii("/* XPM */"), "XPM"),
            (0, ascii("! XPM2"), "XPM"),
            (0, ascii("Image type:"), "IM"),
            (0, ascii("DanM"), "MSP"),
            (0, ascii("LinS"), "MSP"),
            (0, [0xB1, 0x68, 0xDE, 0x3A], "DCX"),
            (4, [0x11, 0xAF], "FLI animation"),
            (4, [0x12, 0xAF], "FLC animation"),
            (20, ascii("GIMP"), "GIMP brush"),
            (0, [0x80, 0xE8, 0x00, 0x00], "Pixar"),
            (0, ascii("FTEX"), "FTEX"),
            (0, [0, 0, 0, 0, 0, 0, 0, 4], "McIdas"),
            (2048, ascii("PCD_IPI"), "Photo CD"),
            (0, [0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1], "OLE compound file (FlashPix, MIC, Office)"),
            (0, [0x08, 0xF2, 0xA6, 0xB6], "VIPS"),
            (0, [0xB6, 0xA6, 0xF2, 0x08], "VIPS"),
            (0, ascii("MATLAB"), "MATLAB"),
            (344, ascii("n+1\u{0}"), "NIfTI"),
            (344, ascii("ni1\u{0}"), "NIfTI"),
            (0, ascii("OggS"), "Ogg video"),
            (0, ascii("FLV"), "Flash video"),
        ]
    }()

    private static func signatureName(_ bytes: [UInt8]) -> String? {
        for (offset, magic, name) in signatures where has(bytes, magic, at: offset) { return name }
        if has(bytes, Array("RIFF".utf8), at: 0) {
            for (form, name) in [("WEBP", "WebP"), ("AVI ", "AVI"), ("ACON", "animated cursor")]
            where has(bytes, Array(form.utf8), at: 8) {
                return name
            }
        }
        return nil
    }

    // MARK: - Headers without a signature

    private static func headerName(_ bytes: [UInt8]) -> String? {
        if isNetpbm(bytes) { return bytes[1] == 0x37 ? "PAM" : bytes[1] == 0x46 || bytes[1] == 0x66 ? "PFM" : "PNM (PPM/PGM/PBM)" }
        if isBMP(bytes) { return "BMP" }
        if isDIB(bytes) { return "DIB (BMP without its file header)" }
        if isSpider(bytes) { return "SPIDER" }
        if isAnalyze(bytes) { return "Analyze" }
        if isPCX(bytes) { return "PCX" }
        if isTGA(bytes) { return "TGA" }
        if isXBM(bytes) { return "XBM" }
        return nil
    }

    /// `P1`…`P7`, `PF` or `Pf`, then whitespace (Netpbm's header).
    private static func isNetpbm(_ bytes: [UInt8]) -> Bool {
        guard bytes.count >= 3, bytes[0] == 0x50 else { return false }
        let kinds: Set<UInt8> = [0x31, 0x32, 0x33, 0x34, 0x35, 0x36, 0x37, 0x46, 0x66]
        return kinds.contains(bytes[1]) && isWhitespace(bytes[2])
    }

    /// `BM` and a DIB header size a reader accepts (any reserved bytes: Pillow does not check them).
    private static func isBMP(_ bytes: [UInt8]) -> Bool {
        guard bytes.count >= 18, bytes[0] == 0x42, bytes[1] == 0x4D else { return false }
        let size = Int(bytes[14]) | Int(bytes[15]) << 8 | Int(bytes[16]) << 16 | Int(bytes[17]) << 24
        return [12, 16, 40, 52, 56, 64, 108, 124].contains(size)
    }

    /// A BMP's info header on its own: a known header size, one plane, a
    /// known bit count (Pillow opens such a file as DIB).
    private static func isDIB(_ bytes: [UInt8]) -> Bool {
        guard bytes.count >= 16 else { return false }
        let size = le32(bytes, 0)
        if size == 12 { return le16(bytes, 8) == 1 && [1, 4, 8, 24].contains(le16(bytes, 10)) }
        return [16, 40, 52, 56, 64, 108, 124].contains(size) && le16(bytes, 12) == 1
            && [0, 1, 2, 4, 8, 16, 24, 32, 48, 64].contains(le16(bytes, 14))
    }

    /// SPIDER (electron microscopy): a header of floats in either byte
    /// order, read as Pillow reads it: a known `iform`, whole positive
    /// sizes, and label bytes equal to label records times record length.
    private static func isSpider(_ bytes: [UInt8]) -> Bool {
        guard bytes.count >= 92 else { return false }
        for bigEndian in [false, true] {
            let t = (0..<23).map { index -> Float in
                let word = bigEndian ? be32(bytes, index * 4) : le32(bytes, index * 4)
                return Float(bitPattern: UInt32(word))
            }
            guard t.allSatisfy({ $0.isFinite && $0.rounded() == $0 && abs($0) < 1e9 }) else { continue }
            let iform = Int(t[4]), rows = Int(t[1]), columns = Int(t[11])
            let labrec = Int(t[12]), labbyt = Int(t[21]), lenbyt = Int(t[22])
            if [1, 3, -11, -12, -21, -22].contains(iform), rows > 0, columns > 0, labbyt > 0, labbyt == labrec * lenbyt {
                return true
            }
        }
        return false
    }

    /// Analyze 7.5 / NIfTI-1 (medical images, read by libvips): a header size of 348 in either byte order.
    private static func isAnalyze(_ bytes: [UInt8]) -> Bool {
        bytes.count >= 348 && (le32(bytes, 0) == 348 || be32(bytes, 0) == 348)
    }

    /// Manufacturer 10, a known version, RLE or raw, 1/2/4/8 bits per plane.
    private static func isPCX(_ bytes: [UInt8]) -> Bool {
        bytes.count >= 128 && bytes[0] == 0x0A && [0, 2, 3, 4, 5].contains(bytes[1])
            && bytes[2] <= 1 && [1, 2, 4, 8].contains(bytes[3])
    }

    /// TGA has no magic bytes (version 2 adds a footer): a file ending in
    /// `TRUEVISION-XFILE.\0`, or an 18-byte header whose fields are all in
    /// the ranges readers accept: colour-map type 0 or 1, a known image type,
    /// a known colour-map entry size and pixel depth, a nonzero size.
    private static func isTGA(_ bytes: [UInt8]) -> Bool {
        if bytes.count >= 44, has(bytes, Array("TRUEVISION-XFILE.".utf8) + [0], at: bytes.count - 18) { return true }
        guard bytes.count >= 18 else { return false }
        let width = Int(bytes[12]) | Int(bytes[13]) << 8, height = Int(bytes[14]) | Int(bytes[15]) << 8
        return bytes[1] <= 1 && [1, 2, 3, 9, 10, 11, 32, 33].contains(bytes[2])
            && [0, 15, 16, 24, 32].contains(bytes[7]) && [1, 8, 15, 16, 24, 32].contains(bytes[16])
            && width > 0 && height > 0
    }

    /// C text starting (after whitespace) `#define`, with `_width` in its first lines.
    private static func isXBM(_ bytes: [UInt8]) -> Bool {
        let start = bytes.firstIndex { !isWhitespace($0) } ?? bytes.endIndex
        guard has(bytes, Array("#define".utf8), at: start) else { return false }
        return contains(bytes[start..<min(bytes.count, start + 1024)], "_width")
    }

    // MARK: - Pictures inside text

    /// SVG markup anywhere (case-insensitive; zero bytes skipped, so UTF-16
    /// text matches too; a BOM, XML prolog or comment before it does not
    /// matter), a `data:image/` URI, or base64 that starts a JPEG or PNG.
    private static func embeddedName(_ bytes: [UInt8]) -> String? {
        if contains(bytes[...], "<svg") { return "SVG" }
        if contains(bytes[...], "data:image/") { return "text with a data:image URI" }
        if contains(bytes[...], "/9j/4", caseSensitive: true) { return "text with a base64 JPEG" }
        if contains(bytes[...], "iVBORw0KGgo", caseSensitive: true) { return "text with a base64 PNG" }
        return nil
    }

    // MARK: - Helpers

    private static func has(_ bytes: [UInt8], _ magic: [UInt8], at offset: Int) -> Bool {
        offset >= 0 && bytes.count >= offset + magic.count && bytes[offset..<offset + magic.count].elementsEqual(magic)
    }

    private static func le16(_ bytes: [UInt8], _ offset: Int) -> Int { Int(bytes[offset]) | Int(bytes[offset + 1]) << 8 }
    private static func le32(_ bytes: [UInt8], _ offset: Int) -> Int { le16(bytes, offset) | le16(bytes, offset + 2) << 16 }
    private static func be32(_ bytes: [UInt8], _ offset: Int) -> Int {
        Int(bytes[offset]) << 24 | Int(bytes[offset + 1]) << 16 | Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
    }

    private static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D || byte == 0x0B || byte == 0x0C
    }

    /// Whether `pattern` (ASCII) occurs in `bytes`, skipping zero bytes
    /// (UTF-16 text), ASCII case-insensitively unless `caseSensitive`.
    private static func contains(_ bytes: ArraySlice<UInt8>, _ pattern: String, caseSensitive: Bool = false) -> Bool {
        let fold = { (byte: UInt8) -> UInt8 in caseSensitive || byte < 0x41 || byte > 0x5A ? byte : byte | 0x20 }
        let needle = Array(pattern.utf8).map(fold)
        guard let first = needle.first else { return true }
        var index = bytes.startIndex
        while let found = bytes[index...].firstIndex(where: { fold($0) == first }) {
            var matched = 1, cursor = found + 1
            while matched < needle.count, cursor < bytes.endIndex {
                let byte = bytes[cursor]
                cursor += 1
                if byte == 0 { continue }
                guard fold(byte) == needle[matched] else { break }
                matched += 1
            }
            if matched == needle.count { return true }
            index = found + 1
        }
        return false
    }
}
