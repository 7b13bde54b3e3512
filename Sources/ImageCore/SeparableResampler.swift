/// Runs a separable resampling of an RGB8 image: a horizontal pass per source
/// row into a float row buffer, then a vertical weighted sum per output row.
///
/// Streaming: memory is a few float rows of the output width, whatever the
/// source size. Each source row is filtered horizontally once (a small cache
/// holds the rows shared by neighbouring output rows).
struct SeparableResampler {
    let horizontal: ResamplingTaps
    let vertical: ResamplingTaps
    /// Every output value is divided by this (the box area for area averaging, 1 otherwise).
    let divisor: Float

    /// Resamples the `region` of `source` (whole pixels, inside the image) to
    /// `outputWidth`×`outputHeight`; the taps index the region's columns and rows.
    func run(source: RGBImage, region: (x: Int, y: Int, width: Int, height: Int)? = nil,
             outputWidth: Int, outputHeight: Int) -> RGBImage {
        let region = region ?? (0, 0, source.width, source.height)
        let rowFloats = outputWidth * 3
        let sourceRowBytes = source.width * 3
        var out = [UInt8](repeating: 0, count: rowFloats * outputHeight)
        // Cache of horizontally filtered source rows: slot = row % cacheSlots.
        let maxTaps = vertical.counts.max() ?? 1
        let cacheSlots = maxTaps + 1
        var cache = [Float](repeating: 0, count: rowFloats * cacheSlots)
        var cachedRow = [Int](repeating: -1, count: cacheSlots)
        var accumulator = [Float](repeating: 0, count: rowFloats)
        let divisorValue = divisor

        source.pixels.withUnsafeBufferPointer { sourceBuffer in
        out.withUnsafeMutableBufferPointer { outBuffer in
        cache.withUnsafeMutableBufferPointer { cacheBuffer in
        accumulator.withUnsafeMutableBufferPointer { acc in
        horizontal.starts.withUnsafeBufferPointer { hStarts in
        horizontal.counts.withUnsafeBufferPointer { hCounts in
        horizontal.offsets.withUnsafeBufferPointer { hOffsets in
        horizontal.weights.withUnsafeBufferPointer { hWeights in
            let src = sourceBuffer.baseAddress!
            let rows = cacheBuffer.baseAddress!

            func filteredRow(_ sourceRow: Int) -> UnsafeMutablePointer<Float> {
                let slot = sourceRow % cacheSlots
                let row = rows + slot * rowFloats
                if cachedRow[slot] == sourceRow { return row }
                cachedRow[slot] = sourceRow
                let line = src + (region.y + sourceRow) * sourceRowBytes + region.x * 3
                for k in 0..<outputWidth {
                    var pixel = line + hStarts[k] * 3
                    var weight = hWeights.baseAddress! + hOffsets[k]
                    var r: Float = 0, g: Float = 0, b: Float = 0
                    for _ in 0..<hCounts[k] {
                        let w = weight.pointee
                        r += w * Float(pixel[0]); g += w * Float(pixel[1]); b += w * Float(pixel[2])
                        pixel += 3
                        weight += 1
                    }
                    row[k * 3] = r; row[k * 3 + 1] = g; row[k * 3 + 2] = b
                }
                return row
            }

            for outRow in 0..<outputHeight {
                let first = vertical.starts[outRow]
                let offset = vertical.offsets[outRow]
                for i in 0..<rowFloats { acc[i] = 0 }
                for t in 0..<vertical.counts[outRow] {
                    let w = vertical.weights[offset + t]
                    let row = filteredRow(first + t)
                    for i in 0..<rowFloats { acc[i] += w * row[i] }
                }
                let destination = outBuffer.baseAddress! + outRow * rowFloats
                for i in 0..<rowFloats {
                    let value = acc[i] / divisorValue + 0.5
                    destination[i] = UInt8(min(max(value, 0), 255))
                }
            }
        }}}}}}}}
        return RGBImage(width: outputWidth, height: outputHeight, pixels: out)
    }
}
