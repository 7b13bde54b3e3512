extension RGBImage {
    /// Downscales by exact area averaging (a box filter with fractional
    /// coverage): each output pixel is the mean of the source area it covers,
    /// partial pixels weighted by their covered fraction. Integer factors give
    /// the exact rounded mean of each k×k block.
    ///
    /// Use it for large reductions (photo → model input); it never aliases and
    /// costs one multiply-add per source pixel and channel (plus the boundary
    /// pixels shared by two outputs). Streaming: memory is a few output rows.
    /// Works for upscaling too (it then degenerates to nearest neighbour with
    /// blended seams); prefer ``resizedBilinear(width:height:)`` for that.
    public func downscaledAreaAverage(width outputWidth: Int, height outputHeight: Int) throws(ImageCoreError) -> RGBImage {
        try Self.validateOutputSize(outputWidth, outputHeight, "area average")
        guard pixelCount > 0 else { throw .emptySource(operation: "area average") }
        if outputWidth == width, outputHeight == height { return self }
        let area = Double(width * height) / Double(outputWidth * outputHeight)
        return SeparableResampler(
            horizontal: .areaCoverage(sourceCount: width, outputCount: outputWidth),
            vertical: .areaCoverage(sourceCount: height, outputCount: outputHeight),
            divisor: Float(area)
        ).run(source: self, outputWidth: outputWidth, outputHeight: outputHeight)
    }

    /// Bilinear resize with half-pixel centres: output pixel (i, j) samples the
    /// source at ((i + 0.5)·W/W′ − 0.5, (j + 0.5)·H/H′ − 0.5), clamped to the
    /// edge pixels — the convention of OpenCV `INTER_LINEAR` and TensorFlow
    /// `resize_bilinear(half_pixel_centers: true)`. Values round to nearest.
    ///
    /// Reads only 2×2 source pixels per output pixel, so it aliases when
    /// shrinking by more than 2×: use ``downscaledAreaAverage(width:height:)``
    /// (or ``resized(width:height:)``) for that.
    public func resizedBilinear(width outputWidth: Int, height outputHeight: Int) throws(ImageCoreError) -> RGBImage {
        try Self.validateOutputSize(outputWidth, outputHeight, "bilinear resize")
        guard pixelCount > 0 else { throw .emptySource(operation: "bilinear resize") }
        if outputWidth == width, outputHeight == height { return self }
        return SeparableResampler(
            horizontal: .linear(sourceCount: width, outputCount: outputWidth),
            vertical: .linear(sourceCount: height, outputCount: outputHeight),
            divisor: 1
        ).run(source: self, outputWidth: outputWidth, outputHeight: outputHeight)
    }

    /// Resizes with the filter that suits the factor: area averaging when both
    /// sides shrink (no aliasing), bilinear otherwise.
    public func resized(width outputWidth: Int, height outputHeight: Int) throws(ImageCoreError) -> RGBImage {
        if outputWidth <= width, outputHeight <= height {
            return try downscaledAreaAverage(width: outputWidth, height: outputHeight)
        }
        return try resizedBilinear(width: outputWidth, height: outputHeight)
    }
}
