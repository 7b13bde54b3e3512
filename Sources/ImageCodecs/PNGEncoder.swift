import CFacepipeShims
import ImageCore

/// Why `PNGEncoder` failed.
public enum PNGEncodeError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Options out of range (for example a level outside 0...9).
    case invalidOptions(String)
    /// The image has no pixels (PNG needs at least 1×1).
    case emptyImage(width: Int, height: Int)
    /// libpng reported an error; the message is libpng's.
    case libpng(String)

    public var description: String {
        switch self {
        case .invalidOptions(let detail): return "invalid PNG encode options: \(detail)"
        case .emptyImage(let width, let height): return "cannot encode an empty \(width)x\(height) image as PNG"
        case .libpng(let message): return "PNG encoding failed: \(message)"
        }
    }
}

/// Encodes 8-bit RGB images as PNG in memory with libpng (through a small C
/// shim, so libpng's setjmp/longjmp never crosses Swift frames).
///
/// facepipe's outputs use `FastPNGEncoder` (several times faster); this path
/// stays for `ImageOutputFormat.png(PNGEncodeOptions)`, for smaller files at
/// higher zlib levels, and for tests, which build every PNG flavour with it.
public enum PNGEncoder {
    /// The PNG file for `image` (colour type 2, 8 bits per sample, not interlaced).
    public static func encode(_ image: RGBImage, options: PNGEncodeOptions = PNGEncodeOptions()) throws(PNGEncodeError) -> [UInt8] {
        let raw = PNGRawImage(width: image.width, height: image.height, colorType: .rgb, bitDepth: 8, rows: image.pixels)
        return try encode(raw, options: options)
    }

    /// Encodes any PNG colour type and bit depth from rows already packed
    /// the way PNG stores them. `package`: tests build every PNG flavour with it.
    package static func encode(_ raw: PNGRawImage, options: PNGEncodeOptions) throws(PNGEncodeError) -> [UInt8] {
        guard (0...9).contains(options.level) else { throw .invalidOptions("level \(options.level) is outside 0...9") }
        guard raw.width > 0, raw.height > 0, raw.width <= Int(UInt32.max), raw.height <= Int(UInt32.max) else {
            throw .emptyImage(width: raw.width, height: raw.height)
        }
        guard raw.rows.count >= raw.rowStride * raw.height else {
            throw .invalidOptions("\(raw.rows.count) bytes of rows for \(raw.height) rows of \(raw.rowStride) bytes")
        }
        var result = facepipe_png_encode_result()
        defer { facepipe_png_encode_result_free(&result) }
        raw.rows.withUnsafeBytes { rows in
            raw.palette.withUnsafeBufferPointer { palette in
                raw.transparency.withUnsafeBufferPointer { alpha in
                    raw.exif.withUnsafeBufferPointer { exif in
                        var params = facepipe_png_encode_params()
                        params.width = UInt32(raw.width)
                        params.height = UInt32(raw.height)
                        params.color_type = raw.colorType.rawValue
                        params.bit_depth = Int32(raw.bitDepth)
                        params.interlace = raw.interlaced ? 1 : 0
                        params.compression_level = Int32(options.level)
                        params.compression_strategy = options.strategy.rawValue
                        params.filters = options.filter.rawValue
                        params.rows = rows.baseAddress?.assumingMemoryBound(to: UInt8.self)
                        params.row_stride = raw.rowStride
                        params.palette = palette.isEmpty ? nil : palette.baseAddress
                        params.palette_entries = Int32(palette.count / 3)
                        params.trns_alpha = alpha.isEmpty ? nil : alpha.baseAddress
                        params.trns_count = Int32(alpha.count)
                        if let colour = raw.transparentColour {
                            params.has_trns_colour = 1
                            params.trns_grey = colour.0
                            params.trns_rgb = (colour.0, colour.1, colour.2)
                        }
                        params.exif = exif.isEmpty ? nil : exif.baseAddress
                        params.exif_length = UInt32(exif.count)
                        facepipe_png_encode(&params, &result)
                    }
                }
            }
        }
        guard result.status == 0 else {
            let message = withUnsafeBytes(of: result.message) { String(decoding: $0.prefix(while: { $0 != 0 }), as: UTF8.self) }
            throw .libpng(message)
        }
        return Array(UnsafeBufferPointer(start: result.data, count: result.size))
    }
}

/// Pixels already laid out as PNG rows, with the chunks that describe them.
package struct PNGRawImage: Sendable {
    package enum ColorType: Int32, Sendable, CaseIterable {
        case grey = 0, rgb = 2, palette = 3, greyAlpha = 4, rgba = 6

        package var channels: Int {
            switch self {
            case .grey, .palette: 1
            case .greyAlpha: 2
            case .rgb: 3
            case .rgba: 4
            }
        }
    }

    package var width: Int
    package var height: Int
    package var colorType: ColorType
    package var bitDepth: Int
    package var interlaced = false
    /// Packed rows, `rowStride` bytes each (16-bit samples big-endian).
    package var rows: [UInt8]
    /// PLTE as RGB triplets.
    package var palette: [UInt8] = []
    /// tRNS alpha per palette entry.
    package var transparency: [UInt8] = []
    /// tRNS colour key for grey (first value) or RGB images.
    package var transparentColour: (UInt16, UInt16, UInt16)?
    /// eXIf payload.
    package var exif: [UInt8] = []

    package var rowStride: Int { (width * colorType.channels * bitDepth + 7) / 8 }

    package init(width: Int, height: Int, colorType: ColorType, bitDepth: Int, rows: [UInt8]) {
        self.width = width
        self.height = height
        self.colorType = colorType
        self.bitDepth = bitDepth
        self.rows = rows
    }
}
