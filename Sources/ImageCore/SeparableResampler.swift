/// Runs a separable resampling of an RGB8 image.
///
/// Two orders, picked by the vertical factor:
/// - **vertical first** when rows shrink: for each output row, the weighted
///   sum of its source rows (a contiguous, vectorised multiply-add over whole
///   rows), then the horizontal taps once on that float row. Cost ≈ one
///   multiply-add per source byte plus the small horizontal pass.
/// - **horizontal first** when rows grow: each source row is filtered
///   horizontally once into a small cache, then output rows blend cached rows.
///
/// Streaming either way: memory is a few float rows, whatever the source size.
struct SeparableResampler {
    let horizontal: ResamplingTaps
    let vertical: ResamplingTaps
    /// Every output value is divided by this (the box area for area averaging, 1 otherwise).
    let divisor: Float
    /// Whether the horizontal taps all have the fixed two-tap shape (bilinear).
    private let horizontalIsTwoTap: Bool

    init(horizontal: ResamplingTaps, vertical: ResamplingTaps, divisor: Float) {
        self.horizontal = horizontal
        self.vertical = vertical
        self.divisor = divisor
        horizontalIsTwoTap = horizontal.isTwoTap
    }

    /// Resamples `source` to `outputWidth`×`outputHeight`; the taps index
    /// its columns and rows.
    func run(source: RGBImage, outputWidth: Int, outputHeight: Int) -> RGBImage {
        let count = outputWidth * outputHeight * 3
        let out = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            source.pixels.withUnsafeBufferPointer { sourceBuffer in
                let input = RowSource(origin: sourceBuffer.baseAddress!, rowStride: source.width * 3, rowBytes: source.width * 3)
                if outputHeight < source.height {
                    verticalFirst(input, into: buffer.baseAddress!, outputWidth: outputWidth, outputHeight: outputHeight)
                } else {
                    horizontalFirst(input, into: buffer.baseAddress!, outputWidth: outputWidth, outputHeight: outputHeight)
                }
            }
            initialized = count
        }
        return RGBImage(width: outputWidth, height: outputHeight, pixels: out)
    }

    /// The rows of the image being resampled.
    struct RowSource {
        let origin: UnsafePointer<UInt8>
        let rowStride: Int
        let rowBytes: Int
        @inline(__always) func row(_ index: Int) -> UnsafePointer<UInt8> { origin + index * rowStride }
    }

    private func verticalFirst(_ input: RowSource, into out: UnsafeMutablePointer<UInt8>, outputWidth: Int, outputHeight: Int) {
        let rowFloats = outputWidth * 3
        // One float of slack: the horizontal taps load whole SIMD4s (RGB + one unused lane).
        let column = UnsafeMutablePointer<Float>.allocate(capacity: input.rowBytes + 1)
        let filtered = UnsafeMutablePointer<Float>.allocate(capacity: rowFloats)
        defer { column.deallocate(); filtered.deallocate() }
        column[input.rowBytes] = 0
        let n = input.rowBytes
        var rows = [UnsafePointer<UInt8>](repeating: input.origin, count: vertical.counts.max() ?? 0)
        var weights = [Float](repeating: 0, count: rows.count)
        for outRow in 0..<outputHeight {
            let first = vertical.starts[outRow], offset = vertical.offsets[outRow], count = vertical.counts[outRow]
            for t in 0..<count {
                rows[t] = input.row(first + t)
                weights[t] = vertical.weights[offset + t]
            }
            // Sixteen columns at a time, all of the row's taps summed in registers
            // (w₀·x₀, then + wₜ·xₜ in tap order: the same operations as tap by tap).
            rows.withUnsafeBufferPointer { rows in
                weights.withUnsafeBufferPointer { weights in
                    var i = 0
                    while i + 16 <= n {
                        @inline(__always) func values(_ t: Int, _ half: Int) -> SIMD8<Float> {
                            SIMD8<Float>(SIMD8<Int32>(truncatingIfNeeded: UnsafeRawPointer(rows[t] + i + half).loadUnaligned(as: SIMD8<UInt8>.self)))
                        }
                        var w = SIMD8<Float>(repeating: weights[0])
                        var low = w * values(0, 0), high = w * values(0, 8)
                        var t = 1
                        while t < count {
                            w = SIMD8<Float>(repeating: weights[t])
                            low += w * values(t, 0)
                            high += w * values(t, 8)
                            t += 1
                        }
                        UnsafeMutableRawPointer(column + i).storeBytes(of: low, as: SIMD8<Float>.self)
                        UnsafeMutableRawPointer(column + i + 8).storeBytes(of: high, as: SIMD8<Float>.self)
                        i += 16
                    }
                    while i < n {
                        var sum = weights[0] * Float(rows[0][i])
                        for t in 1..<max(count, 1) { sum += weights[t] * Float(rows[t][i]) }
                        column[i] = sum
                        i += 1
                    }
                }
            }
            filterHorizontally(UnsafePointer(column), into: filtered, outputWidth: outputWidth)
            storeRounded(filtered, count: rowFloats, to: out + outRow * rowFloats)
        }
    }

    private func horizontalFirst(_ input: RowSource, into out: UnsafeMutablePointer<UInt8>, outputWidth: Int, outputHeight: Int) {
        let rowFloats = outputWidth * 3
        let cacheSlots = (vertical.counts.max() ?? 1) + 1
        let cache = UnsafeMutablePointer<Float>.allocate(capacity: rowFloats * cacheSlots)
        let accumulator = UnsafeMutablePointer<Float>.allocate(capacity: rowFloats)
        let widened = UnsafeMutablePointer<Float>.allocate(capacity: input.rowBytes + 1)  // + 1: see verticalFirst
        defer { cache.deallocate(); accumulator.deallocate(); widened.deallocate() }
        widened[input.rowBytes] = 0
        var cachedRow = [Int](repeating: -1, count: cacheSlots)

        func filteredRow(_ sourceRow: Int) -> UnsafeMutablePointer<Float> {
            let slot = sourceRow % cacheSlots
            let row = cache + slot * rowFloats
            if cachedRow[slot] != sourceRow {
                cachedRow[slot] = sourceRow
                let bytes = input.row(sourceRow)
                for i in 0..<input.rowBytes { widened[i] = Float(bytes[i]) }
                filterHorizontally(UnsafePointer(widened), into: row, outputWidth: outputWidth)
            }
            return row
        }

        for outRow in 0..<outputHeight {
            let first = vertical.starts[outRow], offset = vertical.offsets[outRow]
            for t in 0..<vertical.counts[outRow] {
                let w = vertical.weights[offset + t]
                let row = filteredRow(first + t)
                if t == 0 {
                    for i in 0..<rowFloats { accumulator[i] = w * row[i] }
                } else {
                    for i in 0..<rowFloats { accumulator[i] += w * row[i] }
                }
            }
            storeRounded(accumulator, count: rowFloats, to: out + outRow * rowFloats)
        }
    }

    /// Applies the horizontal taps to one interleaved float row.
    @inline(__always)
    private func filterHorizontally(_ line: UnsafePointer<Float>, into row: UnsafeMutablePointer<Float>, outputWidth: Int) {
        horizontal.starts.withUnsafeBufferPointer { starts in
        horizontal.counts.withUnsafeBufferPointer { counts in
        horizontal.offsets.withUnsafeBufferPointer { offsets in
        horizontal.weights.withUnsafeBufferPointer { weights in
            let weightBase = weights.baseAddress!
            if horizontalIsTwoTap {
                for k in 0..<outputWidth {
                    let pixel = line + starts[k] * 3
                    let w0 = weightBase[2 * k], w1 = weightBase[2 * k + 1]
                    row[k * 3] = w0 * pixel[0] + w1 * pixel[3]
                    row[k * 3 + 1] = w0 * pixel[1] + w1 * pixel[4]
                    row[k * 3 + 2] = w0 * pixel[2] + w1 * pixel[5]
                }
                return
            }
            for k in 0..<outputWidth {
                var pixel = line + starts[k] * 3
                var weight = weightBase + offsets[k]
                var sum = SIMD4<Float>.zero
                for _ in 0..<counts[k] {
                    sum += weight.pointee * UnsafeRawPointer(pixel).loadUnaligned(as: SIMD4<Float>.self)
                    pixel += 3
                    weight += 1
                }
                row[k * 3] = sum.x; row[k * 3 + 1] = sum.y; row[k * 3 + 2] = sum.z
            }
        }}}}
    }

    /// `value / divisor` rounded to nearest (half up) and clamped to 0…255.
    /// Written so the loop vectorises: no trapping float→int conversion (see
    /// ``roundedByte(_:)``).
    @inline(__always)
    private func storeRounded(_ values: UnsafeMutablePointer<Float>, count: Int, to out: UnsafeMutablePointer<UInt8>) {
        let divisor = self.divisor
        if divisor == 1 {
            for i in 0..<count { out[i] = roundedByte(values[i]) }
        } else {
            // A true division (not a reciprocal) keeps integer-factor means exactly rounded.
            for i in 0..<count { out[i] = roundedByte(values[i] / divisor) }
        }
    }
}
