import ImageCore

/// A decoded image with what its file said about it.
public struct DecodedImage: Sendable, Equatable {
    /// The pixels as stored in the file (EXIF orientation *not* applied; use
    /// `image.oriented(orientation)` from ImageCore for upright pixels).
    /// For a JPEG decoded with a DCT scale this is the scaled image.
    public var image: RGBImage
    /// The container format, from the magic bytes.
    public var format: ImageFormat
    /// The EXIF orientation (JPEG APP1 or PNG eXIf); `.topLeft` when absent or malformed.
    public var orientation: ExifOrientation
    /// The stored size declared by the header (before any DCT scaling).
    public var headerWidth: Int
    public var headerHeight: Int
    /// Whether the file carried transparency (alpha channel or tRNS). Its
    /// pixels were composited over `DecodeOptions.alphaBackground`.
    public var hadAlpha: Bool
    /// Recoverable problems: malformed EXIF, benign JPEG warnings.
    public var warnings: [String]

    /// Width of `image` (stored orientation).
    public var rawWidth: Int { image.width }
    /// Height of `image` (stored orientation).
    public var rawHeight: Int { image.height }
    /// Width once `orientation` is applied.
    public var uprightWidth: Int { orientation.swapsDimensions ? image.height : image.width }
    /// Height once `orientation` is applied.
    public var uprightHeight: Int { orientation.swapsDimensions ? image.width : image.height }

    public init(image: RGBImage, format: ImageFormat, orientation: ExifOrientation,
                headerWidth: Int, headerHeight: Int, hadAlpha: Bool, warnings: [String]) {
        self.image = image
        self.format = format
        self.orientation = orientation
        self.headerWidth = headerWidth
        self.headerHeight = headerHeight
        self.hadAlpha = hadAlpha
        self.warnings = warnings
    }
}
