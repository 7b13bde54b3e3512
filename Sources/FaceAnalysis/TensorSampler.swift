import CCPUFeatures
import ImageCore

/// Fills a model's NHWC float input from an image.
///
/// `sample` maps through an affine transform with one bilinear tap per
/// tensor pixel, black outside the image (MediaPipe's rotated-ROI crop for
/// Face Mesh and Iris; no antialiasing, as MediaPipe). `supersample: true`
/// averages an n×n grid of taps (n = ceil(scale), at most 8) when the map
/// shrinks, for measurements on downscaled crops. `resize` is the
/// axis-aligned antialiased resize the detectors' letterbox uses.
/// Values are written as `byte·scale + offset`.
package enum TensorSampler {
    package static func sample(_ image: RGBImage, transform: SamplingTransform, size: Int,
                               valueScale: Float, valueOffset: Float, flipHorizontal: Bool = false, supersample: Bool = false,
                               into tensor: UnsafeMutableBufferPointer<Float>) {
        precondition(tensor.count == size * size * 3, "TensorSampler: tensor holds \(tensor.count), need \(size * size * 3)")
        let width = image.width, height = image.height
        let taps = supersample && transform.scale > 1.5 ? min(Int(transform.scale.rounded(.up)), 8) : 1
        let tapWeight = 1 / Float(taps * taps)
        image.pixels.withUnsafeBufferPointer { pixels in
            @inline(__always) func fetch(_ x: Int, _ y: Int) -> SIMD4<Float> {
                guard x >= 0, y >= 0, x < width, y < height else { return .zero }
                let i = (y * width + x) * 3
                return SIMD4(Float(pixels[i]), Float(pixels[i + 1]), Float(pixels[i + 2]), 0)
            }
            @inline(__always) func bilinear(_ p: SIMD2<Float>) -> SIMD4<Float> {
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
            let base = UnsafeRawPointer(pixels.baseAddress!)
            for v in 0..<size {
                if taps == 1 && v + 2 < size {
                    // Two rows ahead, the source lines each fourth sample will read (rows y0 and y0 + 1):
                    // the tensor row crosses the picture on a slant the hardware prefetcher does not follow.
                    for u in stride(from: 0, to: size, by: 4) {
                        let p = transform.apply(Float(u) + 0.5, Float(v + 2) + 0.5)
                        guard p.x.isFinite, p.y.isFinite else { continue }
                        let x = min(max(Int(p.x - 0.5), 0), width - 1), y = min(max(Int(p.y - 0.5), 0), height - 1)
                        facepipe_prefetch(base + (y * width + x) * 3)
                        facepipe_prefetch(base + (min(y + 1, height - 1) * width + x) * 3)
                    }
                }
                for u in 0..<size {
                    var sum = SIMD4<Float>.zero
                    for j in 0..<taps {
                        let tv = Float(v) + (Float(j) + 0.5) / Float(taps)
                        for i in 0..<taps {
                            let tu = Float(u) + (Float(i) + 0.5) / Float(taps)
                            sum += bilinear(transform.apply(tu, tv))
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
