extension RGBImage {
    /// The pixels inside `rect`, clipped to the image.
    ///
    /// The rectangle is widened to whole pixels: columns `floor(x) ..< ceil(x + width)`,
    /// likewise rows. Throws ``ImageCoreError/cropOutsideImage(_:imageWidth:imageHeight:)``
    /// when a coordinate is not finite or nothing of the image remains.
    public func cropped(to rect: Rect) throws(ImageCoreError) -> RGBImage {
        let values = [rect.x, rect.y, rect.width, rect.height]
        guard values.allSatisfy(\.isFinite), rect.width > 0, rect.height > 0 else {
            throw .cropOutsideImage(rect, imageWidth: width, imageHeight: height)
        }
        // Clamp in Float before converting, so huge values cannot trap.
        func clamped(_ value: Float, _ upper: Int) -> Int { Int(min(max(value, 0), Float(upper))) }
        let x0 = clamped(rect.x.rounded(.down), width), x1 = clamped((rect.x + rect.width).rounded(.up), width)
        let y0 = clamped(rect.y.rounded(.down), height), y1 = clamped((rect.y + rect.height).rounded(.up), height)
        guard x1 > x0, y1 > y0 else {
            throw .cropOutsideImage(rect, imageWidth: width, imageHeight: height)
        }
        return croppedUnchecked(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    /// The `width`×`height` pixels at (`x`, `y`); the region must lie inside the image.
    func croppedUnchecked(x: Int, y: Int, width cropWidth: Int, height cropHeight: Int) -> RGBImage {
        if x == 0, y == 0, cropWidth == width, cropHeight == height { return self }
        let rowBytes = cropWidth * 3
        let out = [UInt8](unsafeUninitializedCapacity: rowBytes * cropHeight) { buffer, count in
            pixels.withUnsafeBufferPointer { source in
                for row in 0..<cropHeight {
                    let from = ((y + row) * width + x) * 3
                    UnsafeMutableRawPointer(buffer.baseAddress! + row * rowBytes)
                        .copyMemory(from: source.baseAddress! + from, byteCount: rowBytes)
                }
            }
            count = rowBytes * cropHeight
        }
        return RGBImage(width: cropWidth, height: cropHeight, pixels: out)
    }
}
