extension TensorSampler {
    /// Copies the `width × height` rectangle of `image` at (`x`, `y`) into
    /// an NHWC tensor 1:1, writing `byte·valueScale + valueOffset` (black,
    /// i.e. `valueOffset`, outside the image). No resampling: the detector
    /// canvases are plain crops of their level image.
    package static func crop(_ image: RGBImage, x: Int, y: Int, width: Int, height: Int,
                             valueScale: Float, valueOffset: Float,
                             into tensor: UnsafeMutableBufferPointer<Float>) {
        precondition(width >= 0 && height >= 0 && tensor.count == width * height * 3,
                     "TensorSampler.crop: tensor holds \(tensor.count), need \(width)×\(height)×3")
        let imageWidth = image.width, imageHeight = image.height
        // Columns of the crop that fall inside the image (the same for every row).
        let firstColumn = min(max(-x, 0), width), endColumn = max(min(imageWidth - x, width), firstColumn)
        let rowFloats = width * 3
        image.pixels.withUnsafeBufferPointer { pixels in
            for row in 0..<height {
                let out = tensor.baseAddress! + row * rowFloats
                let sourceRow = y + row
                guard sourceRow >= 0, sourceRow < imageHeight, endColumn > firstColumn else {
                    out.update(repeating: valueOffset, count: rowFloats)
                    continue
                }
                out.update(repeating: valueOffset, count: firstColumn * 3)
                let source = pixels.baseAddress! + (sourceRow * imageWidth + x + firstColumn) * 3
                let count = (endColumn - firstColumn) * 3
                let target = out + firstColumn * 3
                for i in 0..<count { target[i] = Float(source[i]) * valueScale + valueOffset }
                (out + endColumn * 3).update(repeating: valueOffset, count: (width - endColumn) * 3)
            }
        }
    }
}
