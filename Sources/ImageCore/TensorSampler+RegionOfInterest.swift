internal import CTensorSampling

extension TensorSampler {
    /// Samples the region of `image` that `transform` maps the tensor onto:
    /// tensor pixel (u, v) takes the image at `transform.map((u + 0.5, v + 0.5))`
    /// (continuous coordinates on both sides: image pixel `i` covers `i…i+1`).
    ///
    /// One bilinear tap per tensor pixel, black outside the image and taps
    /// clamped to the edge pixels inside it: MediaPipe's rotated-ROI crop for
    /// Face Mesh and Iris, with no antialiasing, as MediaPipe. `supersample:
    /// true` averages an n×n grid of taps (n = ceil(scale), at most 8) when
    /// the map shrinks, for measurements on downscaled crops.
    /// `flipHorizontal` mirrors the tensor's columns. Writes
    /// `byte·valueScale + valueOffset`, NHWC, `size × size × 3`.
    ///
    /// With one tap, `facepipe_sample_bilinear` (CTensorSampling) does the
    /// work: the same operations in the same order, eight pixels at a time
    /// with AVX2 gathers where all their taps are inside the picture (the
    /// Swift loop spends ~95 cycles per pixel on bounds checks and per-pixel
    /// conversions). `referenceLoop: true` runs the Swift loop instead, so
    /// tests can hold the two to bit-for-bit equality.
    package static func sample(_ image: RGBImage, transform: AffineMap, size: Int,
                               valueScale: Float, valueOffset: Float, flipHorizontal: Bool = false, supersample: Bool = false,
                               referenceLoop: Bool = false, into tensor: UnsafeMutableBufferPointer<Float>) {
        precondition(tensor.count == size * size * 3, "TensorSampler: tensor holds \(tensor.count), need \(size * size * 3)")
        let width = image.width, height = image.height
        let scale = transform.largerAxisScale
        let taps = supersample && scale > 1.5 ? min(Int(scale.rounded(.up)), 8) : 1
        if taps == 1 && !referenceLoop {
            // One tap per pixel: the loop below in C, bit for bit, eight pixels per step.
            let map = [transform.a, transform.b, transform.tx, transform.c, transform.d, transform.ty]
            image.pixels.withUnsafeBufferPointer { pixels in
                facepipe_sample_bilinear(pixels.baseAddress!, Int32(width), Int32(height), map, Int32(size),
                                         valueScale, valueOffset, flipHorizontal ? 1 : 0, tensor.baseAddress!)
            }
            return
        }
        let tapWeight = 1 / Float(taps * taps)
        image.pixels.withUnsafeBufferPointer { pixels in
            @inline(__always) func fetch(_ x: Int, _ y: Int) -> SIMD4<Float> {
                guard x >= 0, y >= 0, x < width, y < height else { return .zero }
                let i = (y * width + x) * 3
                return SIMD4(Float(pixels[i]), Float(pixels[i + 1]), Float(pixels[i + 2]), 0)
            }
            @inline(__always) func bilinear(_ p: Point) -> SIMD4<Float> {
                // Outside the image is black; inside, taps clamp to the edge pixels.
                guard p.x.isFinite, p.y.isFinite, p.x >= 0, p.y >= 0, p.x <= Float(width), p.y <= Float(height) else { return .zero }
                let sx = min(max(p.x - 0.5, 0), Float(width - 1)), sy = min(max(p.y - 0.5, 0), Float(height - 1))
                let fx0 = sx.rounded(.down), fy0 = sy.rounded(.down)
                let tx = sx - fx0, ty = sy - fy0
                let x0 = Int(fx0), y0 = Int(fy0)
                let top = fetch(x0, y0) * (1 - tx) + fetch(x0 + 1, y0) * tx
                let bottom = fetch(x0, y0 + 1) * (1 - tx) + fetch(x0 + 1, y0 + 1) * tx
                return top * (1 - ty) + bottom * ty
            }
            for v in 0..<size {
                for u in 0..<size {
                    var sum = SIMD4<Float>.zero
                    for j in 0..<taps {
                        let tv = Float(v) + (Float(j) + 0.5) / Float(taps)
                        for i in 0..<taps {
                            let tu = Float(u) + (Float(i) + 0.5) / Float(taps)
                            sum += bilinear(transform.map(Point(x: tu, y: tv)))
                        }
                    }
                    sum *= tapWeight
                    let column = flipHorizontal ? size - 1 - u : u
                    let o = (v * size + column) * 3
                    tensor[o] = sum.x * valueScale + valueOffset
                    tensor[o + 1] = sum.y * valueScale + valueOffset
                    tensor[o + 2] = sum.z * valueScale + valueOffset
                }
            }
        }
    }
}
