extension TensorSampler {
    /// Resizes the axis-aligned square `region` of `image` (black outside the
    /// image) to `size × size` with the antialiased bilinear filter
    /// (``AntialiasedBilinearTaps``) and writes `byte·valueScale + valueOffset`,
    /// NHWC: the detectors' letterbox when `region` is
    /// ``SquareRegion/letterbox(width:height:)``.
    ///
    /// Vertical pass first: each output row is the weighted sum of the
    /// source rows under its taps, accumulated eight floats at a time over
    /// just the columns the region's taps read; the horizontal pass then
    /// filters that one row. So the source is read once per tap row, in
    /// order, whatever the downscale factor.
    package static func resize(_ image: RGBImage, region: SquareRegion, size: Int,
                               valueScale: Float, valueOffset: Float,
                               into tensor: UnsafeMutableBufferPointer<Float>) {
        precondition(tensor.count == size * size * 3, "TensorSampler: tensor holds \(tensor.count), need \(size * size * 3)")
        let columns = AntialiasedBilinearTaps(outputSize: size, start: region.x, side: region.side)
        let rows = AntialiasedBilinearTaps(outputSize: size, start: region.y, side: region.side)
        let width = image.width, height = image.height
        // The image columns any output column reads (pixels outside the image are black and add nothing).
        let columnLow = max(columns.first.min() ?? 0, 0)
        let columnHigh = min(zip(columns.first, columns.weights).map { $0 + $1.count }.max() ?? 0, width)
        guard columnHigh > columnLow else {
            for i in tensor.indices { tensor[i] = valueOffset }
            return
        }
        let span = (columnHigh - columnLow) * 3
        var row = [Float](repeating: 0, count: span + 8)
        image.pixels.withUnsafeBufferPointer { pixels in
            row.withUnsafeMutableBufferPointer { row in
                let accumulator = row.baseAddress!
                for v in 0..<size {
                    // Vertical: the taps of output row v over the used columns.
                    accumulator.update(repeating: 0, count: span)
                    let from = rows.first[v]
                    for (t, weight) in rows.weights[v].enumerated() {
                        let y = from + t
                        guard y >= 0, y < height, weight != 0 else { continue }
                        let source = pixels.baseAddress! + (y * width + columnLow) * 3
                        let w = SIMD8<Float>(repeating: weight)
                        var i = 0
                        while i + 8 <= span {
                            let bytes = UnsafeRawPointer(source + i).loadUnaligned(as: SIMD8<UInt8>.self)
                            let values = SIMD8<Float>(SIMD8<Int32>(truncatingIfNeeded: bytes))
                            let target = UnsafeMutableRawPointer(accumulator + i)
                            target.storeBytes(of: target.loadUnaligned(as: SIMD8<Float>.self) + values * w, as: SIMD8<Float>.self)
                            i += 8
                        }
                        while i < span {
                            accumulator[i] += Float(source[i]) * weight
                            i += 1
                        }
                    }
                    // Horizontal: filter the accumulated row into the tensor.
                    for u in 0..<size {
                        var sum = SIMD4<Float>.zero
                        let from = columns.first[u]
                        for (t, weight) in columns.weights[u].enumerated() {
                            let x = from + t
                            guard x >= columnLow, x < columnHigh else { continue }
                            let p = UnsafeRawPointer(accumulator + (x - columnLow) * 3).loadUnaligned(as: SIMD4<Float>.self)
                            sum += p * weight
                        }
                        let o = (v * size + u) * 3
                        tensor[o] = sum.x * valueScale + valueOffset
                        tensor[o + 1] = sum.y * valueScale + valueOffset
                        tensor[o + 2] = sum.z * valueScale + valueOffset
                    }
                }
            }
        }
    }
}
