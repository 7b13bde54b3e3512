extension RGBImage {
    /// `passes` horizontal and vertical box filters of width `w = 2·radius + 1`,
    /// edges repeated: each pass replaces a pixel's channel by the sum `S` of
    /// the `w` values around it rounded back to a byte, `(S + w/2) / w`
    /// (integer division), and the next pass reads those bytes. `radius` 0
    /// changes nothing.
    ///
    /// Both passes walk rows in memory order. The horizontal one takes
    /// each sum as the difference of two prefix sums of the row (its edge
    /// pixels repeated `radius` times on either side); the vertical one
    /// keeps a running sum per column, to which each row adds the row
    /// entering the window and takes away the one leaving it. The quotient
    /// is a multiply and a shift, exact for these sums (`BoxAverage`), so
    /// the bytes are those of the integer definition on every CPU
    /// (`BoxBlurTests` checks them against it). `radius` is at most 32767.
    package func boxBlurred(radius: Int, passes: Int) -> RGBImage {
        precondition(radius >= 0 && passes >= 0 && 2 * radius < BoxAverage.largestTaps, "box blur of radius \(radius), \(passes) passes")
        guard radius > 0, passes > 0, width > 0, height > 0 else { return self }
        let rowBytes = width * 3
        var image = pixels
        var across = [UInt8](repeating: 0, count: pixels.count)
        // One row's prefix sums: a zero pixel, then the row with its edges repeated.
        var prefix = [Int32](repeating: 0, count: (width + 2 * radius + 1) * 3)
        var columns = [Int32](repeating: 0, count: rowBytes)
        let box = BoxAverage(taps: 2 * radius + 1)
        image.withUnsafeMutableBufferPointer { image in
            across.withUnsafeMutableBufferPointer { across in
                prefix.withUnsafeMutableBufferPointer { prefix in
                    columns.withUnsafeMutableBufferPointer { columns in
                        for _ in 0..<passes {
                            for y in 0..<height {
                                Self.horizontalBox(UnsafeBufferPointer(rebasing: image[y * rowBytes ..< (y + 1) * rowBytes]),
                                                   into: UnsafeMutableBufferPointer(rebasing: across[y * rowBytes ..< (y + 1) * rowBytes]),
                                                   prefix: prefix, radius: radius, box: box)
                            }
                            Self.verticalBox(UnsafeBufferPointer(across), into: image, columns: columns,
                                             rowBytes: rowBytes, height: height, radius: radius, box: box)
                        }
                    }
                }
            }
        }
        return RGBImage(width: width, height: height, pixels: image)
    }

    /// One row's horizontal box: `row` and `out` hold the same interleaved RGB pixels.
    private static func horizontalBox(_ row: UnsafeBufferPointer<UInt8>, into out: UnsafeMutableBufferPointer<UInt8>,
                                      prefix: UnsafeMutableBufferPointer<Int32>, radius: Int, box: BoxAverage) {
        let count = row.count, source = row.baseAddress!, sums = prefix.baseAddress!
        // sums[3k + c]: channel c's first k values in the row extended by
        // `radius` copies of its edge pixels on either side.
        var r = Int32(0), g = Int32(0), b = Int32(0)
        var at = sums
        func append(_ red: UInt8, _ green: UInt8, _ blue: UInt8) {
            at[0] = r; at[1] = g; at[2] = b
            r &+= Int32(red); g &+= Int32(green); b &+= Int32(blue)
            at += 3
        }
        for _ in 0..<radius { append(source[0], source[1], source[2]) }
        for i in stride(from: 0, to: count, by: 3) { append(source[i], source[i + 1], source[i + 2]) }
        for _ in 0..<radius { append(source[count - 3], source[count - 2], source[count - 1]) }
        at[0] = r; at[1] = g; at[2] = b
        // Value i's box is the difference of the prefix sums 2·radius + 1 pixels apart.
        let entering = sums + 3 * (2 * radius + 1), target = out.baseAddress!
        for i in 0..<count { target[i] = box.average(entering[i] &- sums[i]) }
    }

    /// The vertical box of `rows` (`height` rows of `rowBytes`) into `out`,
    /// one running sum per column in `columns`.
    private static func verticalBox(_ rows: UnsafeBufferPointer<UInt8>, into out: UnsafeMutableBufferPointer<UInt8>,
                                    columns: UnsafeMutableBufferPointer<Int32>, rowBytes: Int, height: Int, radius: Int, box: BoxAverage) {
        func row(_ y: Int) -> UnsafePointer<UInt8> { rows.baseAddress! + min(max(y, 0), height - 1) * rowBytes }
        let sums = columns.baseAddress!
        // The window of row 0: row 0 taken radius + 1 times, then rows 1...radius.
        let top = row(0)
        for x in 0..<rowBytes { sums[x] = Int32(radius + 1) &* Int32(top[x]) }
        for y in 1...radius {
            let entering = row(y)
            for x in 0..<rowBytes { sums[x] &+= Int32(entering[x]) }
        }
        for y in 0..<height {
            let target = out.baseAddress! + y * rowBytes
            for x in 0..<rowBytes { target[x] = box.average(sums[x]) }
            let entering = row(y + radius + 1), leaving = row(y - radius)
            for x in 0..<rowBytes { sums[x] &+= Int32(entering[x]) &- Int32(leaving[x]) }
        }
    }
}

/// The rounded mean of a box's `taps` byte values from their sum,
/// `(sum + taps/2) / taps`, as a 32 × 32-bit multiply and a shift (so the
/// loops vectorize): with `2^(c−1) < taps ≤ 2^c`, `k = 31 + c` and
/// `m = ⌈2^k / taps⌉` (below 2³²), `⌊n·m / 2^k⌋ = ⌊n / taps⌋` for every
/// `n < 2^k / taps`; the rounded sums stay below `256·taps`, which is less
/// while `taps ≤ 2²³`.
package struct BoxAverage {
    /// The widest box the blur takes: a radius of 32767.
    package static let largestTaps = (1 << 16) - 1
    private let half: UInt32, multiplier: UInt32, shift: UInt64

    package init(taps: Int) {
        precondition(taps >= 1 && taps <= Self.largestTaps, "a box of \(taps) taps")
        let c = UInt64(Int.bitWidth - (taps - 1).leadingZeroBitCount)
        half = UInt32(taps / 2)
        shift = 31 + c
        multiplier = UInt32(((1 << shift) + UInt64(taps) - 1) / UInt64(taps))
    }

    /// `(sum + taps/2) / taps` for a sum of `taps` bytes.
    @inline(__always) package func average(_ sum: Int32) -> UInt8 {
        UInt8(truncatingIfNeeded: (UInt64(UInt32(bitPattern: sum) &+ half) &* UInt64(multiplier)) &>> shift)
    }
}
