import ImageCore

extension RGBImage {
    /// The upright image for EXIF `orientation`: each output pixel is read
    /// from the stored position the orientation maps it to.
    func uprightPixels(for orientation: ExifOrientation) -> RGBImage {
        let w = width, h = height
        let swaps = orientation.swapsDimensions
        let outW = swaps ? h : w, outH = swaps ? w : h
        var out = [UInt8](repeating: 0, count: outW * outH * 3)
        pixels.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                for y in 0..<outH {
                    for x in 0..<outW {
                        let (sx, sy): (Int, Int)
                        switch orientation {
                        case .topLeft: (sx, sy) = (x, y)
                        case .topRight: (sx, sy) = (w - 1 - x, y)
                        case .bottomRight: (sx, sy) = (w - 1 - x, h - 1 - y)
                        case .bottomLeft: (sx, sy) = (x, h - 1 - y)
                        case .leftTop: (sx, sy) = (y, x)
                        case .rightTop: (sx, sy) = (y, h - 1 - x)
                        case .rightBottom: (sx, sy) = (w - 1 - y, h - 1 - x)
                        case .leftBottom: (sx, sy) = (w - 1 - y, x)
                        }
                        let s = (sy * w + sx) * 3, d = (y * outW + x) * 3
                        dst[d] = src[s]; dst[d + 1] = src[s + 1]; dst[d + 2] = src[s + 2]
                    }
                }
            }
        }
        return RGBImage(width: outW, height: outH, pixels: out)
    }
}
