extension RGBImage {
    /// Draws `text` with ``BitmapFont`` at integer `scale` (1…64), its first
    /// glyph cell's top-left corner at `origin` (rounded to whole pixels).
    /// Lines split at `\n`. With `background`, a box padded by `scale` pixels
    /// on each side is filled first, for legibility on busy photos.
    /// Clips at the image borders; a non-finite origin draws nothing.
    public mutating func drawText(_ text: String, at origin: Point, scale: Int = 1,
                                  color: RGBColor, background: RGBColor? = nil) {
        guard origin.x.isFinite, origin.y.isFinite, width > 0, height > 0 else { return }
        let scale = BitmapFont.clampedScale(scale)
        // Far-off origins are clamped to a range where Int arithmetic is safe;
        // text placed there is off the image either way.
        let limit: Float = 1_073_741_824   // 2^30
        let left = Int(min(max(origin.x.rounded(), -limit), limit))
        let top = Int(min(max(origin.y.rounded(), -limit), limit))
        let size = BitmapFont.size(of: text, scale: scale)
        if let background {
            fillPixels(x: left - scale, y: top - scale, width: size.width + 2 * scale,
                       height: size.height + 2 * scale, color: background)
        }
        var lineTop = top
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if lineTop >= height { break }
            var glyphLeft = left
            for scalar in line.unicodeScalars {
                if glyphLeft >= width { break }
                drawGlyph(BitmapFont.glyphIndex(scalar), left: glyphLeft, top: lineTop, scale: scale, color: color)
                glyphLeft += BitmapFont.advance * scale
            }
            lineTop += BitmapFont.lineHeight * scale
        }
    }

    private mutating func drawGlyph(_ index: Int, left: Int, top: Int, scale: Int, color: RGBColor) {
        // Skip glyphs entirely outside the image before touching pixels.
        guard left < width, top < height,
              left + BitmapFont.glyphWidth * scale > 0, top + BitmapFont.glyphHeight * scale > 0 else { return }
        for row in 0..<BitmapFont.glyphHeight {
            let bits = BitmapFont.rows[index * BitmapFont.glyphHeight + row]
            if bits == 0 { continue }
            for column in 0..<BitmapFont.glyphWidth where bits & (0x10 >> UInt8(column)) != 0 {
                fillPixels(x: left + column * scale, y: top + row * scale, width: scale, height: scale, color: color)
            }
        }
    }

    /// Fills whole pixels, clipped to the image.
    mutating func fillPixels(x: Int, y: Int, width fillWidth: Int, height fillHeight: Int, color: RGBColor) {
        let x0 = max(x, 0), y0 = max(y, 0)
        let x1 = min(x + fillWidth, width), y1 = min(y + fillHeight, height)
        guard x0 < x1, y0 < y1 else { return }
        let stride = width * 3
        pixels.withUnsafeMutableBufferPointer { buffer in
            let base = buffer.baseAddress!
            for row in y0..<y1 {
                var p = base + row * stride + x0 * 3
                for _ in x0..<x1 {
                    p[0] = color.r; p[1] = color.g; p[2] = color.b
                    p += 3
                }
            }
        }
    }
}
