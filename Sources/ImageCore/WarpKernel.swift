/// Where the warp kernel writes each output pixel, given its three channel
/// values in 0…255 space. Generic (not existential) so each sink is inlined.
protocol WarpSink {
    func store(pixel index: Int, _ r: Float, _ g: Float, _ b: Float)
}

/// Rounds to the nearest 8-bit value.
struct ByteWarpSink: WarpSink {
    let base: UnsafeMutablePointer<UInt8>
    @inline(__always)
    func store(pixel index: Int, _ r: Float, _ g: Float, _ b: Float) {
        let o = index * 3
        base[o] = roundedByte(r)
        base[o + 1] = roundedByte(g)
        base[o + 2] = roundedByte(b)
    }
}

/// Writes `value · scale + offset` floats, NHWC.
struct TensorWarpSink: WarpSink {
    let base: UnsafeMutablePointer<Float>
    let scale: SIMD3<Float>
    let offset: SIMD3<Float>
    @inline(__always)
    func store(pixel index: Int, _ r: Float, _ g: Float, _ b: Float) {
        let o = index * 3
        base[o] = r * scale.x + offset.x
        base[o + 1] = g * scale.y + offset.y
        base[o + 2] = b * scale.z + offset.z
    }
}

/// Bilinear affine warp in the pixel-index convention: output pixel (i, j)
/// takes the source value at `transform.map((i, j))`, where source pixel
/// (u, v) sits exactly at (u, v) (OpenCV `warpAffine` with `WARP_INVERSE_MAP`).
/// The source must be non-empty and the transform finite.
func warpBilinear<Sink: WarpSink>(source: RGBImage, outputWidth: Int, outputHeight: Int,
                                  transform m: AffineMap, border: WarpBorder, sink: Sink) {
    let width = source.width, height = source.height
    let maxX = Float(width - 1), maxY = Float(height - 1)
    let stride = width * 3
    let replicate: Bool
    let borderColor: SIMD3<Float>
    switch border {
    case .replicate:
        replicate = true
        borderColor = .zero
    case .constant(let color):
        replicate = false
        borderColor = SIMD3(Float(color.r), Float(color.g), Float(color.b))
    }
    source.pixels.withUnsafeBufferPointer { buffer in
        let src = buffer.baseAddress!
        @inline(__always) func load(_ offset: Int) -> SIMD3<Float> {
            SIMD3(Float(src[offset]), Float(src[offset + 1]), Float(src[offset + 2]))
        }
        /// A tap that may lie outside: the border colour or the clamped edge pixel.
        @inline(__always) func tap(_ x: Int, _ y: Int) -> SIMD3<Float> {
            if x >= 0, y >= 0, x < width, y < height { return load(y * stride + x * 3) }
            if !replicate { return borderColor }
            let cx = min(max(x, 0), width - 1), cy = min(max(y, 0), height - 1)
            return load(cy * stride + cx * 3)
        }
        for j in 0..<outputHeight {
            let rowX = m.b * Float(j) + m.tx
            let rowY = m.d * Float(j) + m.ty
            for i in 0..<outputWidth {
                var sx = m.a * Float(i) + rowX
                var sy = m.c * Float(i) + rowY
                let index = j * outputWidth + i
                if replicate {
                    // `!(v >= 0)` also catches NaN; clamping keeps Int() in range.
                    sx = !(sx >= 0) ? 0 : min(sx, maxX)
                    sy = !(sy >= 0) ? 0 : min(sy, maxY)
                } else if !(sx > -1 && sx < Float(width) && sy > -1 && sy < Float(height)) {
                    sink.store(pixel: index, borderColor.x, borderColor.y, borderColor.z)
                    continue
                }
                let fx = sx.rounded(.down), fy = sy.rounded(.down)
                let x0 = Int(fx), y0 = Int(fy)
                let wx = sx - fx, wy = sy - fy
                let p00: SIMD3<Float>, p10: SIMD3<Float>, p01: SIMD3<Float>, p11: SIMD3<Float>
                if x0 >= 0, y0 >= 0, x0 + 1 < width, y0 + 1 < height {
                    let o = y0 * stride + x0 * 3
                    p00 = load(o); p10 = load(o + 3); p01 = load(o + stride); p11 = load(o + stride + 3)
                } else {
                    p00 = tap(x0, y0); p10 = tap(x0 + 1, y0); p01 = tap(x0, y0 + 1); p11 = tap(x0 + 1, y0 + 1)
                }
                let top = p00 + (p10 - p00) * wx
                let bottom = p01 + (p11 - p01) * wx
                let value = top + (bottom - top) * wy
                sink.store(pixel: index, value.x, value.y, value.z)
            }
        }
    }
}
