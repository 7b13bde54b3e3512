/// How an image was fitted into a square model input of side `side`: scaled
/// to fit, centred, the rest padded (black).
///
/// Padding is symmetric and expressed as fractions of the side: the image
/// occupies normalised letterbox coordinates `padX…1−padX` horizontally and
/// `padY…1−padY` vertically (one of them is 0). Undo it with
/// `x′ = (x − padX) / (1 − 2·padX)`, likewise y (``removePadding(_:)``).
public struct Letterbox: Sendable, Hashable, Codable {
    /// The square's side in pixels.
    public let side: Int
    public let sourceWidth: Int
    public let sourceHeight: Int
    /// Fraction of the side padded on the left and on the right.
    public let padX: Float
    /// Fraction of the side padded at the top and at the bottom.
    public let padY: Float

    public init(side: Int, sourceWidth: Int, sourceHeight: Int) {
        self.side = side
        self.sourceWidth = sourceWidth
        self.sourceHeight = sourceHeight
        let longer = Float(max(sourceWidth, sourceHeight))
        padX = (longer - Float(sourceWidth)) / (2 * longer)
        padY = (longer - Float(sourceHeight)) / (2 * longer)
    }

    /// Normalised letterbox coordinates (0…1 over the square) → normalised
    /// source coordinates (0…1 over the image).
    public func removePadding(_ point: Point) -> Point {
        Point(x: (point.x - padX) / (1 - 2 * padX), y: (point.y - padY) / (1 - 2 * padY))
    }

    /// Normalised letterbox coordinates → continuous source pixels (origin
    /// top-left, pixel (i, j) centred at (i+0.5, j+0.5)).
    public func sourcePixel(fromNormalized point: Point) -> Point {
        let unpadded = removePadding(point)
        return Point(x: unpadded.x * Float(sourceWidth), y: unpadded.y * Float(sourceHeight))
    }

    /// Continuous source pixels → normalised letterbox coordinates.
    public func normalized(fromSourcePixel point: Point) -> Point {
        Point(x: point.x / Float(sourceWidth) * (1 - 2 * padX) + padX,
              y: point.y / Float(sourceHeight) * (1 - 2 * padY) + padY)
    }

    /// The warp map (pixel-index convention) from square pixels to source
    /// pixels: the square's continuous span 0…side covers the source's
    /// centred square of side max(W, H), pixel centres matched.
    public var outputToSource: AffineMap {
        let longer = Float(max(sourceWidth, sourceHeight))
        return AffineMap.scale(longer / Float(side))
            .followed(by: .translation(x: (Float(sourceWidth) - longer) / 2, y: (Float(sourceHeight) - longer) / 2))
            .convertedToPixelIndexConvention()
    }
}

extension RGBImage {
    /// The image scaled to fit a `side`×`side` square, centred, padded black,
    /// and the ``Letterbox`` that undoes it. Large reductions area-average first.
    public func letterboxed(side: Int) throws(ImageCoreError) -> (image: RGBImage, letterbox: Letterbox) {
        guard pixelCount > 0 else { throw .emptySource(operation: "letterbox") }
        let letterbox = Letterbox(side: side, sourceWidth: width, sourceHeight: height)
        let image = try warpedAffine(width: side, height: side, outputToSource: letterbox.outputToSource)
        return (image, letterbox)
    }

    /// Letterboxes straight into a float32 NHWC tensor of `side × side × 3`
    /// with `value · scale + offset` (padding = normalised black).
    public func letterbox(into tensor: UnsafeMutableBufferPointer<Float>, side: Int,
                          normalization: PixelNormalization) throws(ImageCoreError) -> Letterbox {
        guard pixelCount > 0 else { throw .emptySource(operation: "letterbox") }
        let letterbox = Letterbox(side: side, sourceWidth: width, sourceHeight: height)
        try warpAffine(into: tensor, width: side, height: side, outputToSource: letterbox.outputToSource,
                       normalization: normalization)
        return letterbox
    }
}
