/// A shape that knows how much of each pixel it covers (0…1), evaluated at
/// pixel centres in continuous coordinates (pixel (i, j) spans
/// [i, i+1)×[j, j+1), centre (i+0.5, j+0.5)). Computed in Double so that far
/// away or huge coordinates lose precision gracefully instead of overflowing.
protocol CoverageShape {
    /// The region outside which coverage is 0: (minX, minY, maxX, maxY).
    var bounds: (minX: Double, minY: Double, maxX: Double, maxY: Double) { get }
    func coverage(x: Double, y: Double) -> Double
    /// The pixel columns of the row whose centres are at `centreY` outside
    /// which coverage is 0 (possibly wider; may lie outside the image), or
    /// nil for all of `bounds`.
    func inkColumns(centreY: Double) -> Range<Int>?
}

extension CoverageShape {
    func inkColumns(centreY: Double) -> Range<Int>? { nil }
}

/// Coordinates beyond this magnitude are not drawn: nothing plausible lies
/// there, and Double keeps sub-pixel precision well inside it.
let drawableCoordinateLimit = 1e12

/// The pixels a shape may touch, clipped to the image; `nil` when the shape is
/// degenerate (non-finite bounds) or misses the image.
struct PixelSpan {
    let columns: ClosedRange<Int>
    let rows: ClosedRange<Int>

    init?(minX: Double, minY: Double, maxX: Double, maxY: Double, width: Int, height: Int) {
        guard width > 0, height > 0 else { return nil }
        for v in [minX, minY, maxX, maxY] where !(abs(v) <= drawableCoordinateLimit) { return nil }
        let x0 = max(0, minX.rounded(.down)), x1 = min(Double(width - 1), maxX.rounded(.up))
        let y0 = max(0, minY.rounded(.down)), y1 = min(Double(height - 1), maxY.rounded(.up))
        guard x0 <= x1, y0 <= y1 else { return nil }
        columns = Int(x0)...Int(x1)
        rows = Int(y0)...Int(y1)
    }

    /// Whole-pixel half-open ranges `[x0, x1) × [y0, y1)` (integer-valued), clipped.
    init?(x0: Double, x1: Double, y0: Double, y1: Double, width: Int, height: Int) {
        guard width > 0, height > 0 else { return nil }
        for v in [x0, x1, y0, y1] where !(abs(v) <= drawableCoordinateLimit) { return nil }
        let cx0 = max(0, x0), cx1 = min(Double(width), x1)
        let cy0 = max(0, y0), cy1 = min(Double(height), y1)
        guard cx0 < cx1, cy0 < cy1 else { return nil }
        columns = Int(cx0)...(Int(cx1) - 1)
        rows = Int(cy0)...(Int(cy1) - 1)
    }
}

/// A line segment with round caps, `halfWidth` either side.
struct CapsuleShape: CoverageShape {
    let ax: Double, ay: Double, bx: Double, by: Double
    let halfWidth: Double

    var bounds: (minX: Double, minY: Double, maxX: Double, maxY: Double) {
        let r = halfWidth + 1
        return (min(ax, bx) - r, min(ay, by) - r, max(ax, bx) + r, max(ay, by) + r)
    }

    func coverage(x: Double, y: Double) -> Double {
        let dx = bx - ax, dy = by - ay
        let lengthSquared = dx * dx + dy * dy
        var t = lengthSquared > 0 ? ((x - ax) * dx + (y - ay) * dy) / lengthSquared : 0
        t = min(max(t, 0), 1)
        let ex = x - (ax + t * dx), ey = y - (ay + t * dy)
        return min(max(halfWidth + 0.5 - (ex * ex + ey * ey).squareRoot(), 0), 1)
    }

    /// Ink needs a pixel centre closer than `r = halfWidth + 0.5` to the
    /// segment, so the nearest segment point lies in the band `centreY ± r`
    /// and within `r` horizontally: the segment's x extent in that band,
    /// widened by `r` and a pixel of margin. An empty range when the band
    /// misses the segment.
    func inkColumns(centreY: Double) -> Range<Int>? {
        let r = halfWidth + 0.5
        let dy = by - ay
        var t0 = 0.0, t1 = 1.0
        if dy == 0 {
            guard abs(ay - centreY) <= r else { return 0..<0 }
        } else {
            let u = (centreY - r - ay) / dy, v = (centreY + r - ay) / dy
            t0 = max(t0, min(u, v))
            t1 = min(t1, max(u, v))
            guard t0 <= t1 else { return 0..<0 }
        }
        let x0 = ax + t0 * (bx - ax), x1 = ax + t1 * (bx - ax)
        let low = (min(x0, x1) - r - 1.5).rounded(.down), high = (max(x0, x1) + r + 1.5).rounded(.up)
        guard low.isFinite, high.isFinite, abs(low) <= drawableCoordinateLimit, abs(high) <= drawableCoordinateLimit else { return nil }
        return Int(low)..<Int(high)
    }

    /// The segment clipped (Liang–Barsky) to the rectangle around the image
    /// where it can still put ink; `nil` when it misses it.
    func clipped(width: Int, height: Int) -> CapsuleShape? {
        let margin = halfWidth + 2
        let (xMin, yMin, xMax, yMax) = (-margin, -margin, Double(width) + margin, Double(height) + margin)
        var t0 = 0.0, t1 = 1.0
        let dx = bx - ax, dy = by - ay
        for (p, q) in [(-dx, ax - xMin), (dx, xMax - ax), (-dy, ay - yMin), (dy, yMax - ay)] {
            if p == 0 {
                if q < 0 { return nil }
            } else {
                let r = q / p
                if p < 0 { t0 = max(t0, r) } else { t1 = min(t1, r) }
            }
        }
        guard t0 <= t1 else { return nil }
        return CapsuleShape(ax: ax + t0 * dx, ay: ay + t0 * dy, bx: ax + t1 * dx, by: ay + t1 * dy, halfWidth: halfWidth)
    }
}

/// A filled disc.
struct DiscShape: CoverageShape {
    let cx: Double, cy: Double, radius: Double
    var bounds: (minX: Double, minY: Double, maxX: Double, maxY: Double) {
        (cx - radius - 1, cy - radius - 1, cx + radius + 1, cy + radius + 1)
    }
    func coverage(x: Double, y: Double) -> Double {
        let dx = x - cx, dy = y - cy
        return min(max(radius + 0.5 - (dx * dx + dy * dy).squareRoot(), 0), 1)
    }
}

/// A circle outline: a ring `halfWidth` either side of `radius`.
struct RingShape: CoverageShape {
    let cx: Double, cy: Double, radius: Double, halfWidth: Double
    var bounds: (minX: Double, minY: Double, maxX: Double, maxY: Double) {
        let r = radius + halfWidth + 1
        return (cx - r, cy - r, cx + r, cy + r)
    }
    func coverage(x: Double, y: Double) -> Double {
        let dx = x - cx, dy = y - cy
        return min(max(halfWidth + 0.5 - abs((dx * dx + dy * dy).squareRoot() - radius), 0), 1)
    }
}

/// An axis-aligned box, optionally with an axis-aligned hole: exact area
/// coverage of each pixel square (so integer-aligned boxes are crisp).
struct BoxShape: CoverageShape {
    let outer: (minX: Double, minY: Double, maxX: Double, maxY: Double)
    let hole: (minX: Double, minY: Double, maxX: Double, maxY: Double)?

    var bounds: (minX: Double, minY: Double, maxX: Double, maxY: Double) { outer }

    private static func overlap(_ box: (minX: Double, minY: Double, maxX: Double, maxY: Double),
                                _ x: Double, _ y: Double) -> Double {
        // The pixel square is [x−0.5, x+0.5)×[y−0.5, y+0.5).
        let ox = min(box.maxX, x + 0.5) - max(box.minX, x - 0.5)
        let oy = min(box.maxY, y + 0.5) - max(box.minY, y - 0.5)
        return ox > 0 && oy > 0 ? min(ox, 1) * min(oy, 1) : 0
    }

    func coverage(x: Double, y: Double) -> Double {
        let covered = Self.overlap(outer, x, y)
        guard covered > 0, let hole else { return covered }
        return max(covered - Self.overlap(hole, x, y), 0)
    }
}
