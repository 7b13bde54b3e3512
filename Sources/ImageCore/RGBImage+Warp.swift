extension RGBImage {
    /// An `width`×`height` image whose pixel (i, j) is the source sampled
    /// bilinearly at `outputToSource.map((i, j))`.
    ///
    /// **Pixel convention** (OpenCV `warpAffine` with `WARP_INVERSE_MAP`, the
    /// way MediaPipe crops ROIs): both images are addressed by pixel index —
    /// source pixel (u, v) sits exactly at (u, v), output pixel (i, j) at (i, j).
    /// A map written in continuous coordinates (pixel centre at (i+0.5, j+0.5))
    /// converts with ``AffineMap/convertedToPixelIndexConvention()``.
    ///
    /// - Parameters:
    ///   - border: what taps outside the source read (default black).
    ///   - antialias: when the map shrinks by more than 2× (√|det| > 2), first
    ///     area-average the part of the source the output can reach down to
    ///     about the output's scale, then warp — no aliasing, and the cost
    ///     follows the pixels actually covered, not the whole photo. Pass
    ///     `false` for bit-level parity with MediaPipe/OpenCV crops, which
    ///     sample point-wise at any scale.
    /// - Throws: ``ImageCoreError`` for an invalid size, an empty source or a
    ///   non-finite transform.
    public func warpedAffine(width outputWidth: Int, height outputHeight: Int, outputToSource: AffineMap,
                             border: WarpBorder = .black, antialias: Bool = true) throws(ImageCoreError) -> RGBImage {
        try Self.validateOutputSize(outputWidth, outputHeight, "warp")
        let (source, transform) = try warpSource(outputWidth: outputWidth, outputHeight: outputHeight,
                                                 outputToSource: outputToSource, antialias: antialias)
        let count = outputWidth * outputHeight * 3
        let out = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            warpBilinear(source: source, outputWidth: outputWidth, outputHeight: outputHeight,
                         transform: transform, border: border, sink: ByteWarpSink(base: buffer.baseAddress!))
            initialized = count
        }
        return RGBImage(width: outputWidth, height: outputHeight, pixels: out)
    }

    /// The same warp as ``warpedAffine(width:height:outputToSource:border:antialias:)``
    /// written straight into a float32 NHWC tensor (`height × width × 3`,
    /// channels R, G, B) as `value · scale + offset` — no intermediate image.
    /// The border colour goes through the same normalisation.
    ///
    /// - Throws: ``ImageCoreError/tensorBufferSize(expected:actual:)`` unless
    ///   `tensor.count == height * width * 3`, and the errors of the image variant.
    public func warpAffine(into tensor: UnsafeMutableBufferPointer<Float>, width outputWidth: Int, height outputHeight: Int,
                           outputToSource: AffineMap, border: WarpBorder = .black,
                           normalization: PixelNormalization, antialias: Bool = true) throws(ImageCoreError) {
        try Self.validateOutputSize(outputWidth, outputHeight, "warp")
        let expected = outputWidth * outputHeight * 3
        guard tensor.count == expected, let base = tensor.baseAddress else {
            throw .tensorBufferSize(expected: expected, actual: tensor.count)
        }
        let (source, transform) = try warpSource(outputWidth: outputWidth, outputHeight: outputHeight,
                                                 outputToSource: outputToSource, antialias: antialias)
        warpBilinear(source: source, outputWidth: outputWidth, outputHeight: outputHeight, transform: transform,
                     border: border, sink: TensorWarpSink(base: base, scale: normalization.scale, offset: normalization.offset))
    }

    /// The image and map the bilinear kernel should use: `self` unchanged, or
    /// for shrinking maps an area-averaged copy of the reachable region with
    /// the map adjusted to it.
    func warpSource(outputWidth: Int, outputHeight: Int, outputToSource m: AffineMap,
                    antialias: Bool) throws(ImageCoreError) -> (RGBImage, AffineMap) {
        guard pixelCount > 0 else { throw .emptySource(operation: "warp") }
        guard m.isFinite else { throw .nonFiniteTransform(m) }
        let shrink = abs(m.determinant).squareRoot()
        guard antialias, shrink > 2, shrink.isFinite else { return (self, m) }

        // Footprint of the output (with a one-pixel rim) in the source, plus
        // room for the box filter, clipped to the image.
        let corners = [Point(x: -1, y: -1), Point(x: Float(outputWidth), y: -1),
                       Point(x: -1, y: Float(outputHeight)), Point(x: Float(outputWidth), y: Float(outputHeight))]
            .map(m.map)
        let margin = shrink + 2
        func clampedIndex(_ value: Float, _ upper: Int) -> Int { Int(min(max(value, 0), Float(upper))) }
        let x0 = clampedIndex((corners.map(\.x).min()! - margin).rounded(.down), width)
        let x1 = clampedIndex((corners.map(\.x).max()! + margin).rounded(.up), width)
        let y0 = clampedIndex((corners.map(\.y).min()! - margin).rounded(.down), height)
        let y1 = clampedIndex((corners.map(\.y).max()! + margin).rounded(.up), height)
        guard x1 > x0, y1 > y0 else { return (self, m) }   // nothing reachable: all border

        let regionWidth = x1 - x0, regionHeight = y1 - y0
        let reducedWidth = max(1, Int((Float(regionWidth) / shrink).rounded()))
        let reducedHeight = max(1, Int((Float(regionHeight) / shrink).rounded()))
        guard reducedWidth < regionWidth || reducedHeight < regionHeight else { return (self, m) }
        let reduced = SeparableResampler(
            horizontal: .areaCoverage(sourceCount: regionWidth, outputCount: reducedWidth),
            vertical: .areaCoverage(sourceCount: regionHeight, outputCount: reducedHeight),
            divisor: Float(Double(regionWidth * regionHeight) / Double(reducedWidth * reducedHeight))
        ).run(source: self, region: (x0, y0, regionWidth, regionHeight),
              outputWidth: reducedWidth, outputHeight: reducedHeight)
        // Source pixel index → region continuous → reduced continuous → reduced index.
        let toReduced = AffineMap.translation(x: Float(-x0) + 0.5, y: Float(-y0) + 0.5)
            .followed(by: .scale(x: Float(reducedWidth) / Float(regionWidth), y: Float(reducedHeight) / Float(regionHeight)))
            .followed(by: .translation(x: -0.5, y: -0.5))
        return (reduced, m.followed(by: toReduced))
    }
}
