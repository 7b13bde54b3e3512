import ImageCore

/// Draws opaque boxes, dots and polylines into an RGB image, clipped to its
/// bounds. Integer geometry only (so bytes are identical on every machine).
struct Painter {
    var image: RGBImage

    typealias Colour = (UInt8, UInt8, UInt8)

    mutating func fillRect(x0: Int, y0: Int, x1: Int, y1: Int, _ colour: Colour) {
        let xa = max(0, x0), xb = min(image.width - 1, x1)
        let ya = max(0, y0), yb = min(image.height - 1, y1)
        guard xa <= xb, ya <= yb else { return }
        let width = image.width
        image.pixels.withUnsafeMutableBufferPointer { pixels in
            for y in ya...yb {
                var i = (y * width + xa) * 3
                for _ in xa...xb {
                    pixels[i] = colour.0; pixels[i + 1] = colour.1; pixels[i + 2] = colour.2
                    i += 3
                }
            }
        }
    }

    /// The outline of `rect` with `thickness` pixels drawn inwards from its edge.
    mutating func strokeRect(_ rect: Rect, thickness: Int, _ colour: Colour) {
        let x0 = Int(rect.x.rounded()), y0 = Int(rect.y.rounded())
        let x1 = Int((rect.x + rect.width).rounded()) - 1, y1 = Int((rect.y + rect.height).rounded()) - 1
        guard x1 >= x0, y1 >= y0 else { return }
        let t = max(1, thickness)
        fillRect(x0: x0, y0: y0, x1: x1, y1: y0 + t - 1, colour)
        fillRect(x0: x0, y0: y1 - t + 1, x1: x1, y1: y1, colour)
        fillRect(x0: x0, y0: y0, x1: x0 + t - 1, y1: y1, colour)
        fillRect(x0: x1 - t + 1, y0: y0, x1: x1, y1: y1, colour)
    }

    /// A square dot of side `2·radius + 1` centred on `point`.
    mutating func dot(_ point: Point, radius: Int, _ colour: Colour) {
        guard point.x.isFinite, point.y.isFinite, abs(point.x) < 1e7, abs(point.y) < 1e7 else { return }
        let x = Int(point.x.rounded(.down)), y = Int(point.y.rounded(.down))
        fillRect(x0: x - radius, y0: y - radius, x1: x + radius, y1: y + radius, colour)
    }

    /// A line of square dots (Bresenham), `thickness` wide.
    mutating func line(from a: Point, to b: Point, thickness: Int, _ colour: Colour) {
        guard a.x.isFinite, a.y.isFinite, b.x.isFinite, b.y.isFinite,
              max(abs(a.x), abs(a.y), abs(b.x), abs(b.y)) < 1e6 else { return }
        var x0 = Int(a.x.rounded(.down)), y0 = Int(a.y.rounded(.down))
        let x1 = Int(b.x.rounded(.down)), y1 = Int(b.y.rounded(.down))
        let dx = abs(x1 - x0), dy = -abs(y1 - y0)
        let sx = x0 < x1 ? 1 : -1, sy = y0 < y1 ? 1 : -1
        var error = dx + dy
        let r = max(0, (thickness - 1) / 2)
        while true {
            fillRect(x0: x0 - r, y0: y0 - r, x1: x0 + r, y1: y0 + r, colour)
            if x0 == x1 && y0 == y1 { break }
            let e2 = 2 * error
            if e2 >= dy { error += dy; x0 += sx }
            if e2 <= dx { error += dx; y0 += sy }
        }
    }

    mutating func polyline(_ points: [Point], closed: Bool, thickness: Int, _ colour: Colour) {
        guard points.count > 1 else {
            if let p = points.first { dot(p, radius: max(0, thickness / 2), colour) }
            return
        }
        for i in 0..<(points.count - 1) { line(from: points[i], to: points[i + 1], thickness: thickness, colour) }
        if closed { line(from: points[points.count - 1], to: points[0], thickness: thickness, colour) }
    }
}
