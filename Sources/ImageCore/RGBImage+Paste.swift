extension RGBImage {
    /// `self` pasted at (`x`, `y`) into a `width`×`height` canvas of grey `fill`.
    package func pasted(into width: Int, _ height: Int, at x: Int, _ y: Int, fill: UInt8 = 96) -> RGBImage {
        var canvas = RGBImage(width: width, height: height, fill: (fill, fill, fill))
        canvas.paste(self, at: x, y)
        return canvas
    }

    /// Copies `other` over this image with its top-left corner at (`x`, `y`);
    /// what falls outside this image is dropped.
    package mutating func paste(_ other: RGBImage, at x: Int, _ y: Int) {
        let x0 = max(x, 0), x1 = min(x + other.width, width)
        let y0 = max(y, 0), y1 = min(y + other.height, height)
        guard x1 > x0, y1 > y0 else { return }
        let rowBytes = (x1 - x0) * 3
        for row in y0..<y1 {
            let source = ((row - y) * other.width + x0 - x) * 3, destination = (row * width + x0) * 3
            pixels.replaceSubrange(destination..<destination + rowBytes, with: other.pixels[source..<source + rowBytes])
        }
    }
}
