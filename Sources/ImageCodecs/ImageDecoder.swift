import CTurboJPEG
import ImageCore

/// Decodes JPEG and PNG bytes into an `RGBImage`, reading the EXIF orientation.
///
/// The format comes from the magic bytes, never from a file name. An
/// `ImageDecoder` keeps its TurboJPEG handle between calls; it is not
/// Sendable: give each concurrent worker its own decoder.
///
/// ```swift
/// let decoder = ImageDecoder()
/// let decoded = try decoder.decode(bytes, options: DecodeOptions(minimumSize: (256, 256)))
/// let upright = decoded.image.oriented(decoded.orientation)  // ImageCore
/// ```
public final class ImageDecoder {
    private var jpeg: TurboJPEGDecompressor?

    public init() {}

    /// One-off decode with a fresh decoder.
    public static func decode(_ bytes: [UInt8], options: DecodeOptions = DecodeOptions()) throws(ImageDecodeError) -> DecodedImage {
        try ImageDecoder().decode(bytes, options: options)
    }

    /// Decodes bytes held in any collection (contiguous ones are not copied).
    public func decode(_ bytes: some Collection<UInt8>, options: DecodeOptions = DecodeOptions()) throws(ImageDecodeError) -> DecodedImage {
        let result: Result<DecodedImage, ImageDecodeError>? = bytes.withContiguousStorageIfAvailable { buffer in
            Result { () throws(ImageDecodeError) in try decode(UnsafeRawBufferPointer(buffer), options: options) }
        }
        if let result { return try result.get() }
        return try decode(Array(bytes), options: options)
    }

    /// Decodes bytes in memory the caller owns for the duration of the call.
    public func decode(_ bytes: UnsafeRawBufferPointer, options: DecodeOptions = DecodeOptions()) throws(ImageDecodeError) -> DecodedImage {
        guard bytes.count > 0, bytes.baseAddress != nil else { throw .empty }
        switch ImageFormat(sniffing: bytes) {
        case .jpeg: return try decodeJPEG(bytes, options: options)
        case .png: return try decodePNG(bytes, options: options)
        case nil: throw .unknownFormat(prefix: Array(bytes.prefix(16)))
        }
    }

    // MARK: JPEG

    private func decodeJPEG(_ bytes: UnsafeRawBufferPointer, options: DecodeOptions) throws(ImageDecodeError) -> DecodedImage {
        let markers = JPEGMarkers(scanning: bytes)
        let exif = markers.exif.map { ExifParser.orientation(fromTIFF: UnsafeRawBufferPointer(rebasing: bytes[$0])) }
            ?? ExifParser.Result(orientation: .topLeft, warnings: [])
        let decompressor = try jpegDecompressor()
        let header: TurboJPEGDecompressor.Header
        do throws(ImageDecodeError) {
            header = try decompressor.header(of: bytes, markers: markers)
            // A header cut short can "succeed" with a 0×0 size.
            if header.width == 0 || header.height == 0 {
                throw markers.runsPastEnd
                    ? .truncated(format: .jpeg, detail: "data ends inside the JPEG header")
                    : .corrupt(format: .jpeg, detail: "header declares an empty \(header.width)x\(header.height) image")
            }
        } catch {
            jpeg = nil  // never reuse a handle libjpeg gave up on
            throw error
        }
        try Self.checkLimit(width: header.width, height: header.height, format: .jpeg, options: options)

        var scale = options.jpegScale
        if let minimum = options.minimumSize {
            // The minimum is about the upright picture: compare it with the
            // stored size turned by the EXIF orientation. One scale applies to both axes.
            let upright = exif.orientation.swapsDimensions ? (header.height, header.width) : (header.width, header.height)
            scale = JPEGScale.largestReduction(width: upright.0, height: upright.1, keepingAtLeast: minimum)
        }
        guard TurboJPEGDecompressor.supportedScales.contains(scale) else {
            throw .unsupported(format: .jpeg, detail: "this TurboJPEG cannot scale by 1/\(scale.denominator)")
        }
        let width = scale.scaled(header.width), height = scale.scaled(header.height)
        var warnings = exif.warnings
        var failure: ImageDecodeError?
        let pixels = [UInt8](hugePageBacked: width * height * 3) { rgb in
            do throws(ImageDecodeError) {
                if header.isCMYK {
                    var cmyk = [UInt8](repeating: 0, count: width * height * 4)
                    warnings += try cmyk.withUnsafeMutableBytes { cmykBytes in
                        Result { () throws(ImageDecodeError) in
                            let found = try decompressor.decompress(bytes, into: cmykBytes, width: width, height: height,
                                                                    pixelFormat: TJPF_CMYK, markers: markers)
                            CMYKConversion.convert(cmyk: UnsafeRawBufferPointer(cmykBytes), into: UnsafeMutableRawBufferPointer(rgb),
                                                   pixelCount: width * height, adobeInverted: markers.hasAdobeSegment)
                            return found
                        }
                    }.get()
                } else {
                    warnings += try decompressor.decompress(bytes, into: UnsafeMutableRawBufferPointer(rgb), width: width,
                                                            height: height, pixelFormat: TJPF_RGB, markers: markers)
                }
            } catch {
                failure = error
            }
        }
        if let failure {
            // After an error libjpeg's state may be left mid-stream (TurboJPEG 2.1
            // then misreads the next file's tables): drop the handle.
            jpeg = nil
            throw failure
        }
        return DecodedImage(image: RGBImage(width: width, height: height, pixels: pixels), format: .jpeg,
                            orientation: exif.orientation, headerWidth: header.width, headerHeight: header.height,
                            hadAlpha: false, warnings: warnings)
    }

    private func jpegDecompressor() throws(ImageDecodeError) -> TurboJPEGDecompressor {
        if let jpeg { return jpeg }
        let created = try TurboJPEGDecompressor()
        jpeg = created
        return created
    }

    // MARK: PNG

    private func decodePNG(_ bytes: UnsafeRawBufferPointer, options: DecodeOptions) throws(ImageDecodeError) -> DecodedImage {
        let chunks = PNGChunks(scanning: bytes)
        if let size = chunks.headerSize {
            // Checked from IHDR before libpng reads further (a header-only
            // file claiming 50 000 × 50 000 is "too large", not "truncated").
            try Self.checkLimit(width: size.width, height: size.height, format: .png, options: options)
        }
        let session = try PNGReadSession(bytes, completeFile: chunks.complete)
        let width = session.width, height = session.height
        try Self.checkLimit(width: width, height: height, format: .png, options: options)
        guard chunks.complete else {
            throw .truncated(format: .png, detail: "data ends inside the \(chunks.endedInside ?? "chunk list") before IEND")
        }
        let exif = chunks.exif.map { ExifParser.orientation(fromTIFF: UnsafeRawBufferPointer(rebasing: bytes[$0])) }
            ?? ExifParser.Result(orientation: .topLeft, warnings: [])
        var warnings = exif.warnings
        let hasAlpha = session.hasAlpha
        var failure: ImageDecodeError?
        let pixels = [UInt8](hugePageBacked: width * height * 3) { rgb in
            do throws(ImageDecodeError) {
                let warning: String?
                if chunks.isInterlaced16Bit {
                    var rgba = [UInt8](repeating: 0, count: width * height * 4)
                    try rgba.withUnsafeMutableBytes { rgbaBytes in
                        Result { () throws(ImageDecodeError) in
                            try PNGReadSession.decodeClassic(bytes, width: width, height: height, into: rgbaBytes)
                            AlphaCompositing.composite(rgba: UnsafeRawBufferPointer(rgbaBytes), into: UnsafeMutableRawBufferPointer(rgb),
                                                       pixelCount: width * height, background: options.alphaBackground)
                        }
                    }.get()
                    warning = nil
                } else if hasAlpha {
                    var rgba = [UInt8](repeating: 0, count: width * height * 4)
                    warning = try rgba.withUnsafeMutableBytes { rgbaBytes in
                        Result { () throws(ImageDecodeError) in
                            let warning = try session.finish(into: rgbaBytes, withAlpha: true, completeFile: true)
                            AlphaCompositing.composite(rgba: UnsafeRawBufferPointer(rgbaBytes), into: UnsafeMutableRawBufferPointer(rgb),
                                                       pixelCount: width * height, background: options.alphaBackground)
                            return warning
                        }
                    }.get()
                } else {
                    warning = try session.finish(into: UnsafeMutableRawBufferPointer(rgb), withAlpha: false, completeFile: true)
                }
                if let warning { warnings.append("PNG: \(warning)") }
            } catch {
                failure = error
            }
        }
        if let failure { throw failure }
        return DecodedImage(image: RGBImage(width: width, height: height, pixels: pixels), format: .png,
                            orientation: exif.orientation, headerWidth: width, headerHeight: height,
                            hadAlpha: hasAlpha, warnings: warnings)
    }

    // MARK: Limits

    private static func checkLimit(width: Int, height: Int, format: ImageFormat, options: DecodeOptions) throws(ImageDecodeError) {
        guard width > 0, height > 0 else {
            throw .corrupt(format: format, detail: "header declares an empty \(width)x\(height) image")
        }
        // PNG's IHDR fields are 32-bit (a hostile file may exceed the 2^31 the spec allows): multiply without trapping.
        let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
        if overflow || pixels > options.maxPixels {
            throw .tooLarge(width: width, height: height, limit: options.maxPixels)
        }
    }
}

@available(*, unavailable, message: "An ImageDecoder owns a TurboJPEG handle: create one per worker")
extension ImageDecoder: Sendable {}
