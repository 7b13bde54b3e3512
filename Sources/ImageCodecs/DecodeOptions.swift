import ImageCore

/// How `ImageDecoder` decodes: limits, JPEG DCT-domain scaling, alpha handling.
public struct DecodeOptions: Sendable, Equatable {
    /// The most pixels (width × height of the stored image, as declared by its
    /// header) a decode may produce. Checked before any pixel buffer is
    /// allocated, so a 50 000 × 50 000 header costs nothing. Default 100 MP.
    public var maxPixels: Int

    /// How much to shrink JPEGs while decoding (DCT-domain scaling, much
    /// faster than decoding full size and resampling). Ignored for PNG.
    public var jpegScale: JPEGScale

    /// When set, JPEGs are decoded at the smallest DCT scale whose *upright*
    /// size (after the EXIF orientation is applied) is still at least this
    /// large in both dimensions; it overrides `jpegScale`. Useful when a
    /// detector needs 256 px and the photo has 12 MP. Ignored for PNG.
    public var minimumSize: (width: Int, height: Int)?

    /// The colour transparent PNG pixels are composited over. Default black:
    /// the models see only RGB, and black is what a zero-padded letterbox
    /// shows too, so transparent borders look like padding rather than content.
    public var alphaBackground: (red: UInt8, green: UInt8, blue: UInt8)

    public init(
        maxPixels: Int = 100_000_000,
        jpegScale: JPEGScale = .full,
        minimumSize: (width: Int, height: Int)? = nil,
        alphaBackground: (red: UInt8, green: UInt8, blue: UInt8) = (0, 0, 0)
    ) {
        self.maxPixels = maxPixels
        self.jpegScale = jpegScale
        self.minimumSize = minimumSize
        self.alphaBackground = alphaBackground
    }

    public static func == (lhs: DecodeOptions, rhs: DecodeOptions) -> Bool {
        lhs.maxPixels == rhs.maxPixels && lhs.jpegScale == rhs.jpegScale
            && lhs.minimumSize?.width == rhs.minimumSize?.width
            && lhs.minimumSize?.height == rhs.minimumSize?.height
            && lhs.alphaBackground == rhs.alphaBackground
    }
}
