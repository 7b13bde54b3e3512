extension RGBImage {
    /// Whether some `block`×`block` block of the region (blocks on a grid
    /// from the region's clipped top-left corner, wholly inside the image)
    /// has a grey-level standard deviation of at least `deviation`.
    ///
    /// Grey is the integer luma `(77·R + 150·G + 29·B) >> 8`; the test is
    /// exact integer arithmetic (`n·Σg² − (Σg)² ≥ n²·deviation²`), so every CPU
    /// gives the same answer. Stops at the first such block. A region with no
    /// whole block inside the image has no contrast.
    public func hasBlockContrast(x: Int, y: Int, width: Int, height: Int, block: Int, deviation: Int) -> Bool {
        precondition(block > 0 && deviation >= 0)
        let x0 = max(x, 0), y0 = max(y, 0)
        let x1 = min(x + width, self.width), y1 = min(y + height, self.height)
        guard x1 - x0 >= block, y1 - y0 >= block else { return false }
        let n = block * block
        let limit = n * n * deviation * deviation
        let columns = (x1 - x0) / block
        var sums = [Int](repeating: 0, count: columns), squares = [Int](repeating: 0, count: columns)
        return pixels.withUnsafeBufferPointer { bytes in
            var top = y0
            while top + block <= y1 {
                for c in 0..<columns { sums[c] = 0; squares[c] = 0 }
                for row in top..<(top + block) {
                    var i = (row * self.width + x0) * 3
                    for c in 0..<columns {
                        var s = 0, q = 0
                        for _ in 0..<block {
                            let g = (77 * Int(bytes[i]) + 150 * Int(bytes[i + 1]) + 29 * Int(bytes[i + 2])) >> 8
                            s += g; q += g * g
                            i += 3
                        }
                        sums[c] += s; squares[c] += q
                    }
                }
                for c in 0..<columns where n * squares[c] - sums[c] * sums[c] >= limit { return true }
                top += block
            }
            return false
        }
    }
}
