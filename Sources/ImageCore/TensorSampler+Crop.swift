extension TensorSampler {
    /// Copies the `width × height` rectangle of `image` at (`x`, `y`) into
    /// an NHWC tensor 1:1, writing `byte·valueScale + valueOffset` (black,
    /// i.e. `valueOffset`, outside the image). No resampling: the detector
    /// canvases are plain crops of their level image.
    package static func crop(_ image: RGBImage, x: Int, y: Int, width: Int, height: Int,
                             valueScale: Float, valueOffset: Float,
                             into tensor: UnsafeMutableBufferPointer<Float>) {
        walkCrop(image, x: x, y: y, width: width, height: height, into: tensor, outside: valueOffset) { source, target, count in
            for i in 0..<count { target[i] = Float(source[i]) * valueScale + valueOffset }
        }
    }

    /// The one walk of a 1:1 crop, whatever the tensor's element: each row's
    /// columns inside the image go through `copy` (source bytes, target
    /// elements, count), everything outside the image is `outside`.
    @inline(__always)
    static func walkCrop<Element>(_ image: RGBImage, x: Int, y: Int, width: Int, height: Int,
                                  into tensor: UnsafeMutableBufferPointer<Element>, outside: Element,
                                  copy: (_ source: UnsafePointer<UInt8>, _ target: UnsafeMutablePointer<Element>, _ count: Int) -> Void) {
        precondition(width >= 0 && height >= 0 && tensor.count == width * height * 3,
                     "TensorSampler: crop tensor holds \(tensor.count), need \(width)×\(height)×3")
        let imageWidth = image.width, imageHeight = image.height
        // Columns of the crop that fall inside the image (the same for every row).
        let firstColumn = min(max(-x, 0), width), endColumn = max(min(imageWidth - x, width), firstColumn)
        let rowElements = width * 3
        image.pixels.withUnsafeBufferPointer { pixels in
            for row in 0..<height {
                let out = tensor.baseAddress! + row * rowElements
                let sourceRow = y + row
                guard sourceRow >= 0, sourceRow < imageHeight, endColumn > firstColumn else {
                    out.update(repeating: outside, count: rowElements)
                    continue
                }
                out.update(repeating: outside, count: firstColumn * 3)
                copy(pixels.baseAddress! + (sourceRow * imageWidth + x + firstColumn) * 3, out + firstColumn * 3, (endColumn - firstColumn) * 3)
                (out + endColumn * 3).update(repeating: outside, count: (width - endColumn) * 3)
            }
        }
    }
}
