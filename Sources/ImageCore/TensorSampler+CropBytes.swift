extension TensorSampler {
    /// Copies the `width × height` rectangle of `image` at (`x`, `y`) into
    /// NHWC bytes 1:1, black (0) outside the image: the bytes whose
    /// `crop(…, valueScale: 2/255, valueOffset: -1)` is the float canvas
    /// (black there is −1), for a model with an int8 first convolution.
    package static func cropBytes(_ image: RGBImage, x: Int, y: Int, width: Int, height: Int,
                                  into tensor: UnsafeMutableBufferPointer<UInt8>) {
        precondition(width >= 0 && height >= 0 && tensor.count == width * height * 3,
                     "TensorSampler.cropBytes: tensor holds \(tensor.count), need \(width)×\(height)×3")
        let imageWidth = image.width, imageHeight = image.height
        // Columns of the crop that fall inside the image (the same for every row).
        let firstColumn = min(max(-x, 0), width), endColumn = max(min(imageWidth - x, width), firstColumn)
        let rowBytes = width * 3
        image.pixels.withUnsafeBufferPointer { pixels in
            for row in 0..<height {
                let out = tensor.baseAddress! + row * rowBytes
                let sourceRow = y + row
                guard sourceRow >= 0, sourceRow < imageHeight, endColumn > firstColumn else {
                    out.update(repeating: 0, count: rowBytes)
                    continue
                }
                out.update(repeating: 0, count: firstColumn * 3)
                let source = pixels.baseAddress! + (sourceRow * imageWidth + x + firstColumn) * 3
                (out + firstColumn * 3).update(from: source, count: (endColumn - firstColumn) * 3)
                (out + endColumn * 3).update(repeating: 0, count: (width - endColumn) * 3)
            }
        }
    }
}
