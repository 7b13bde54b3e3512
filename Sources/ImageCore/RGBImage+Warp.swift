extension RGBImage {
    /// A `size`×`size` image whose pixel (u, v) is this image at
    /// `cropToImage.map((u + 0.5, v + 0.5))` (continuous coordinates), black
    /// outside the picture: ``TensorSampler``'s region-of-interest sampling
    /// with values kept as bytes (supersampled when the map shrinks, so a
    /// large face is averaged rather than aliased), rounded half up.
    public func warped(_ cropToImage: AffineMap, size: Int) -> RGBImage {
        precondition(size > 0, "RGBImage.warped: size must be positive")
        var values = [Float](repeating: 0, count: size * size * 3)
        values.withUnsafeMutableBufferPointer { tensor in
            TensorSampler.sample(self, transform: cropToImage, size: size, valueScale: 1, valueOffset: 0,
                                 supersample: true, into: tensor)
        }
        return RGBImage(width: size, height: size, pixels: values.map(roundedByte))
    }
}
