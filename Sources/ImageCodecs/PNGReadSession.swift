import CFacepipeShims
import CPNG

/// Owns one libpng simplified-API `png_image` read (its `opaque` state is
/// released in `deinit`, whatever path the decode took). libpng's longjmp
/// error handling stays inside libpng's `png_safe_execute`: nothing unwinds
/// through Swift.
final class PNGReadSession {
    private var image = png_image()

    /// Reads the header (IHDR and the chunks before IDAT) from `data`.
    /// `data` must stay valid until `finish` returns. `completeFile` says
    /// whether the chunk walk reached IEND (failures are then `.corrupt`,
    /// otherwise `.truncated`).
    init(_ data: UnsafeRawBufferPointer, completeFile: Bool) throws(ImageDecodeError) {
        image.version = UInt32(PNG_IMAGE_VERSION)
        guard png_image_begin_read_from_memory(&image, data.baseAddress, data.count) != 0 else {
            throw Self.translate(message: message, truncated: !completeFile)
        }
    }

    deinit { png_image_free(&image) }

    var width: Int { Int(image.width) }
    var height: Int { Int(image.height) }
    /// An alpha channel or a tRNS chunk.
    var hasAlpha: Bool { image.format & UInt32(PNG_FORMAT_FLAG_ALPHA) != 0 }

    /// Decodes into `destination` as 8-bit sRGB, RGBA when `withAlpha`
    /// (straight, not premultiplied) else RGB. 16-bit files without gAMA/sRGB
    /// chunks are taken as sRGB-encoded (`PNG_IMAGE_FLAG_16BIT_sRGB`), like
    /// every viewer does, rather than libpng's default of linear light.
    /// Returns libpng's warning, if any.
    func finish(into destination: UnsafeMutableRawBufferPointer, withAlpha: Bool, completeFile: Bool) throws(ImageDecodeError) -> String? {
        let channels = withAlpha ? 4 : 3
        precondition(destination.count >= width * height * channels, "PNG destination buffer too small")
        image.format = withAlpha ? UInt32(PNG_FORMAT_FLAG_COLOR | PNG_FORMAT_FLAG_ALPHA) : UInt32(PNG_FORMAT_FLAG_COLOR)
        image.flags |= UInt32(PNG_IMAGE_FLAG_16BIT_sRGB)
        guard png_image_finish_read(&image, nil, destination.baseAddress, Int32(width * channels), nil) != 0 else {
            throw Self.translate(message: message, truncated: !completeFile)
        }
        return image.warning_or_error & UInt32(PNG_IMAGE_WARNING) != 0 ? message : nil
    }

    /// Decodes with libpng's classic API (C shim) into straight 8-bit RGBA.
    /// libpng 1.6.39's simplified API scrambles 16-bit Adam7 images when
    /// reducing them to 8 bits (verified against Pillow); this path is used
    /// for those files only. It does no gamma conversion: 16-bit samples are
    /// scaled with rounding, as the simplified path does with `16BIT_sRGB`.
    static func decodeClassic(_ data: UnsafeRawBufferPointer, width: Int, height: Int,
                              into destination: UnsafeMutableRawBufferPointer) throws(ImageDecodeError) {
        precondition(destination.count >= width * height * 4, "PNG destination buffer too small")
        var message = [CChar](repeating: 0, count: 200)
        let status = facepipe_png_decode_rgba8(data.baseAddress!.assumingMemoryBound(to: UInt8.self), data.count,
                                               UInt32(width), UInt32(height),
                                               destination.baseAddress!.assumingMemoryBound(to: UInt8.self), &message, message.count)
        guard status == 0 else {
            throw translate(message: String(decoding: message.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self),
                            truncated: false)
        }
    }

    private var message: String {
        withUnsafeBytes(of: image.message) { raw in
            String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
        }
    }

    /// The one place libpng failures become `ImageDecodeError`.
    static func translate(message: String, truncated: Bool) -> ImageDecodeError {
        let detail = "libpng: \(message.isEmpty ? "unknown error" : message)"
        if truncated || message.contains("Not enough image data") || message.contains("Read Error") || message.contains("read beyond end") {
            return .truncated(format: .png, detail: detail)
        }
        return .corrupt(format: .png, detail: detail)
    }
}
