/// Removes alpha by compositing straight (non-premultiplied) 8-bit RGBA over
/// a solid background in sRGB values: `out = (c·a + bg·(255 − a) + 127) / 255`.
/// A plain blend of the stored values, like most image tools, so results are
/// exact integers anyone can recompute.
enum AlphaCompositing {
    static func composite(rgba: UnsafeRawBufferPointer, into rgb: UnsafeMutableRawBufferPointer,
                          pixelCount: Int, background: (red: UInt8, green: UInt8, blue: UInt8)) {
        precondition(rgba.count >= pixelCount * 4 && rgb.count >= pixelCount * 3, "alpha compositing buffers too small")
        guard pixelCount > 0 else { return }
        let source = rgba.baseAddress!.assumingMemoryBound(to: UInt8.self)
        let destination = rgb.baseAddress!.assumingMemoryBound(to: UInt8.self)
        let bg = (UInt32(background.red), UInt32(background.green), UInt32(background.blue))
        for pixel in 0..<pixelCount {
            let s = source + 4 * pixel, d = destination + 3 * pixel
            let alpha = UInt32(s[3]), rest = 255 - alpha
            d[0] = UInt8(truncatingIfNeeded: (UInt32(s[0]) * alpha + bg.0 * rest + 127) / 255)
            d[1] = UInt8(truncatingIfNeeded: (UInt32(s[1]) * alpha + bg.1 * rest + 127) / 255)
            d[2] = UInt8(truncatingIfNeeded: (UInt32(s[2]) * alpha + bg.2 * rest + 127) / 255)
        }
    }
}
