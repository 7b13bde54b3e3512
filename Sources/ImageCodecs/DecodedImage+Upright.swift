import ImageCore

extension DecodedImage {
    /// The pixels turned upright by the EXIF orientation (`image.oriented(orientation)`).
    /// Width and height are `uprightWidth` × `uprightHeight`.
    public func uprightImage() -> RGBImage {
        orientation == .topLeft ? image : image.oriented(orientation)
    }
}
