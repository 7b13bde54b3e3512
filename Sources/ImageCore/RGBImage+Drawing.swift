/// Drawing in place. Coordinates are continuous pixels, origin top-left:
/// pixel (i, j) spans [i, i+1)×[j, j+1), so its centre is (i+0.5, j+0.5) and
/// a point at normalised (u, v) is simply (u·width, v·height).
///
/// Edges are anti-aliased by coverage (the fraction of a pixel the shape
/// covers, estimated from the distance to its outline). Everything clips to
/// the image: any coordinates — negative, huge, NaN, infinite — are safe;
/// shapes with a non-finite or absurd (> 1e12) coordinate, width or radius
/// are skipped.
extension RGBImage {
    /// A straight line of `width` pixels with round caps.
    public mutating func drawLine(from start: Point, to end: Point, width: Float = 1,
                                  color: RGBColor, opacity: Float = 1) {
        guard let shape = capsule(from: start, to: end, width: width) else { return }
        paint(shape, color: color, opacity: opacity)
    }

    /// Connected line segments with round joins; `closed` also joins the last
    /// point to the first. Overlapping segments do not double-blend.
    public mutating func drawPolyline(_ points: [Point], closed: Bool = false, width: Float = 1,
                                      color: RGBColor, opacity: Float = 1) {
        guard !points.isEmpty else { return }
        var segments: [CapsuleShape] = []
        let count = closed && points.count > 2 ? points.count : points.count - 1
        if points.count == 1, let dot = capsule(from: points[0], to: points[0], width: width) {
            segments.append(dot)
        }
        for i in 0..<max(count, 0) {
            if let segment = capsule(from: points[i], to: points[(i + 1) % points.count], width: width) {
                segments.append(segment)
            }
        }
        paintUnion(segments, color: color, opacity: opacity)
    }

    /// A circle outline of stroke `width` centred on the radius.
    public mutating func drawCircle(center: Point, radius: Float, width: Float = 1,
                                    color: RGBColor, opacity: Float = 1) {
        guard radius >= 0, width > 0 else { return }
        paint(RingShape(cx: Double(center.x), cy: Double(center.y), radius: Double(radius), halfWidth: Double(width) / 2),
              color: color, opacity: opacity)
    }

    /// A filled disc.
    public mutating func fillCircle(center: Point, radius: Float, color: RGBColor, opacity: Float = 1) {
        guard radius >= 0 else { return }
        paint(DiscShape(cx: Double(center.x), cy: Double(center.y), radius: Double(radius)), color: color, opacity: opacity)
    }

    /// A filled dot, e.g. a landmark: ``fillCircle(center:radius:color:opacity:)``
    /// with a default radius of 1.5 pixels.
    public mutating func drawDot(at center: Point, radius: Float = 1.5, color: RGBColor, opacity: Float = 1) {
        fillCircle(center: center, radius: radius, color: color, opacity: opacity)
    }

    /// A rectangle outline whose stroke of `width` pixels is centred on the
    /// rectangle's edges (square corners). A rectangle with negative width or
    /// height is normalised first.
    public mutating func drawRectangle(_ rect: Rect, width: Float = 1, color: RGBColor, opacity: Float = 1) {
        guard width > 0, let box = normalizedBox(rect) else { return }
        let h = Double(width) / 2
        let outer = (box.minX - h, box.minY - h, box.maxX + h, box.maxY + h)
        let inner = (box.minX + h, box.minY + h, box.maxX - h, box.maxY - h)
        let hole = inner.0 < inner.2 && inner.1 < inner.3 ? inner : nil
        let shape = BoxShape(outer: outer, hole: hole)
        guard let hole else { return paint(shape, color: color, opacity: opacity) }
        // Visit only the stroke: four disjoint whole-pixel bands, so a large
        // box costs its perimeter, not its area, and no pixel blends twice.
        let (left, top) = (outer.0.rounded(.down), outer.1.rounded(.down))
        let (right, bottom) = (outer.2.rounded(.up), outer.3.rounded(.up))
        let (holeLeft, holeTop) = (hole.0.rounded(.up), hole.1.rounded(.up))
        let (holeRight, holeBottom) = (hole.2.rounded(.down), hole.3.rounded(.down))
        guard holeLeft < holeRight, holeTop < holeBottom else { return paint(shape, color: color, opacity: opacity) }
        let bands = [(left, right, top, holeTop), (left, right, holeBottom, bottom),
                     (left, holeLeft, holeTop, holeBottom), (holeRight, right, holeTop, holeBottom)]
        for band in bands {
            guard let span = PixelSpan(x0: band.0, x1: band.1, y0: band.2, y1: band.3, width: self.width, height: self.height) else { continue }
            paint(shape, in: span, color: color, opacity: opacity)
        }
    }

    /// A filled rectangle (exact area coverage at fractional edges).
    public mutating func fillRectangle(_ rect: Rect, color: RGBColor, opacity: Float = 1) {
        guard let box = normalizedBox(rect) else { return }
        paint(BoxShape(outer: box, hole: nil), color: color, opacity: opacity)
    }

    // MARK: - Internals

    private func capsule(from start: Point, to end: Point, width: Float) -> CapsuleShape? {
        guard width > 0, width.isFinite else { return nil }
        let values = [start.x, start.y, end.x, end.y].map(Double.init)
        guard values.allSatisfy({ abs($0) <= drawableCoordinateLimit }) else { return nil }
        return CapsuleShape(ax: values[0], ay: values[1], bx: values[2], by: values[3], halfWidth: Double(width) / 2)
            .clipped(width: self.width, height: self.height)
    }

    private func normalizedBox(_ rect: Rect) -> (minX: Double, minY: Double, maxX: Double, maxY: Double)? {
        let x0 = Double(rect.x), y0 = Double(rect.y)
        let x1 = x0 + Double(rect.width), y1 = y0 + Double(rect.height)
        guard [x0, y0, x1, y1].allSatisfy({ abs($0) <= drawableCoordinateLimit }) else { return nil }
        return (min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1))
    }

    /// Blends `color` into every pixel the shape covers.
    mutating func paint<Shape: CoverageShape>(_ shape: Shape, color: RGBColor, opacity: Float) {
        let b = shape.bounds
        guard let span = PixelSpan(minX: b.minX, minY: b.minY, maxX: b.maxX, maxY: b.maxY, width: width, height: height)
        else { return }
        paint(shape, in: span, color: color, opacity: opacity)
    }

    /// Blends `color` into the pixels of `span` the shape covers.
    mutating func paint<Shape: CoverageShape>(_ shape: Shape, in span: PixelSpan, color: RGBColor, opacity: Float) {
        guard let alpha = Self.clampedOpacity(opacity) else { return }
        let stride = width * 3
        pixels.withUnsafeMutableBufferPointer { buffer in
            let base = buffer.baseAddress!
            for y in span.rows {
                let centreY = Double(y) + 0.5
                for x in span.columns {
                    let coverage = shape.coverage(x: Double(x) + 0.5, y: centreY) * alpha
                    if coverage > 0 { Self.blend(base + y * stride + x * 3, color, coverage) }
                }
            }
        }
    }

    /// Paints the union of shapes: each pixel gets the largest coverage of any
    /// of them, blended once (no darker joints where segments overlap).
    mutating func paintUnion<Shape: CoverageShape>(_ shapes: [Shape], color: RGBColor, opacity: Float) {
        guard !shapes.isEmpty, let alpha = Self.clampedOpacity(opacity) else { return }
        var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity
        for shape in shapes {
            let b = shape.bounds
            minX = min(minX, b.minX); minY = min(minY, b.minY); maxX = max(maxX, b.maxX); maxY = max(maxY, b.maxY)
        }
        guard let span = PixelSpan(minX: minX, minY: minY, maxX: maxX, maxY: maxY, width: width, height: height) else { return }
        let maskWidth = span.columns.count
        let parts: [(shape: Shape, span: PixelSpan)] = shapes.compactMap { shape in
            let b = shape.bounds
            return PixelSpan(minX: b.minX, minY: b.minY, maxX: b.maxX, maxY: b.maxY, width: width, height: height)
                .map { (shape, $0) }
        }
        let stride = width * 3
        // Row by row: the coverage of each pixel is the maximum over the
        // shapes whose boxes hold its row, kept in one row of the union's
        // width (a mask of the whole box — a face outline's is most of the
        // face — cost more than the drawing). Only the shapes' own columns
        // are visited, twice: once to take the maximum, once to blend
        // (clearing each entry so it blends only once).
        let order = parts.indices.sorted { parts[$0].span.rows.lowerBound < parts[$1].span.rows.lowerBound }
        var active: [Int] = []
        var next = 0
        var coverageRow = [Float](repeating: 0, count: maskWidth)
        coverageRow.withUnsafeMutableBufferPointer { rowBuffer in
            pixels.withUnsafeMutableBufferPointer { buffer in
                let base = buffer.baseAddress!
                for y in span.rows {
                    while next < order.count && parts[order[next]].span.rows.lowerBound <= y {
                        active.append(order[next])
                        next += 1
                    }
                    active.removeAll { parts[$0].span.rows.upperBound < y }
                    let centreY = Double(y) + 0.5
                    // Each shape's columns in this row that can get ink (a slanted segment's box is mostly empty).
                    func columns(_ index: Int) -> Range<Int> {
                        let whole = parts[index].span.columns
                        guard let ink = parts[index].shape.inkColumns(centreY: centreY) else { return whole.lowerBound..<(whole.upperBound + 1) }
                        let low = max(ink.lowerBound, whole.lowerBound), high = min(ink.upperBound, whole.upperBound + 1)
                        return low < high ? low..<high : low..<low
                    }
                    for index in active {
                        let shape = parts[index].shape
                        for x in columns(index) {
                            let coverage = Float(shape.coverage(x: Double(x) + 0.5, y: centreY))
                            let slot = x - span.columns.lowerBound
                            if coverage > rowBuffer[slot] { rowBuffer[slot] = coverage }
                        }
                    }
                    for index in active {
                        for x in columns(index) {
                            let slot = x - span.columns.lowerBound
                            if rowBuffer[slot] > 0 {
                                Self.blend(base + y * stride + x * 3, color, Double(rowBuffer[slot]) * alpha)
                                rowBuffer[slot] = 0
                            }
                        }
                    }
                }
            }
        }
    }

    /// `opacity` clamped to 0…1, or `nil` when nothing would show (≤ 0 or NaN).
    static func clampedOpacity(_ opacity: Float) -> Double? {
        guard opacity > 0 else { return nil }
        return min(Double(opacity), 1)
    }

    @inline(__always)
    static func blend(_ pixel: UnsafeMutablePointer<UInt8>, _ color: RGBColor, _ coverage: Double) {
        let a = min(coverage, 1)
        @inline(__always) func mix(_ old: UInt8, _ new: UInt8) -> UInt8 {
            UInt8(Double(old) + (Double(new) - Double(old)) * a + 0.5)
        }
        pixel[0] = mix(pixel[0], color.r)
        pixel[1] = mix(pixel[1], color.g)
        pixel[2] = mix(pixel[2], color.b)
    }
}
