import ImageCore
import Testing

/// Coordinates that must never trap or write out of bounds.
let extremeValues: [Float] = [.nan, .infinity, -.infinity, 1e30, -1e30, 3.4e38, -5, 0, 7.5, 1e6, -1e12, 16, 17]

struct ExtremeCase: Sendable, CustomTestStringConvertible {
    let a: Point
    let b: Point
    let size: Float
    var testDescription: String { "(\(a.x), \(a.y)) (\(b.x), \(b.y)) size \(size)" }

    static var all: [ExtremeCase] {
        var cases: [ExtremeCase] = []
        for (i, x) in extremeValues.enumerated() {
            let y = extremeValues[(i * 5 + 3) % extremeValues.count]
            let bx = extremeValues[(i * 7 + 1) % extremeValues.count]
            let by = extremeValues[(i * 3 + 2) % extremeValues.count]
            let size = extremeValues[(i + 4) % extremeValues.count]
            cases.append(ExtremeCase(a: Point(x: x, y: y), b: Point(x: bx, y: by), size: size))
            cases.append(ExtremeCase(a: Point(x: 8, y: 8), b: Point(x: x, y: y), size: 3))
        }
        return cases
    }
}

@Test(arguments: ExtremeCase.all)
func drawingWithExtremeCoordinatesStaysInBounds(_ c: ExtremeCase) {
    var image = RGBImage(width: 16, height: 12)
    image.drawLine(from: c.a, to: c.b, width: c.size, color: .red)
    image.drawLine(from: c.a, to: c.b, color: .red, opacity: c.size)
    image.drawPolyline([c.a, c.b, Point(x: 3, y: 3), c.a], closed: true, width: c.size, color: .green)
    image.drawCircle(center: c.a, radius: c.size, width: c.b.x, color: .blue)
    image.fillCircle(center: c.b, radius: c.size, color: .yellow)
    image.drawDot(at: c.a, radius: c.size, color: .cyan)
    image.drawRectangle(Rect(x: c.a.x, y: c.a.y, width: c.b.x, height: c.b.y), width: c.size, color: .white)
    image.fillRectangle(Rect(x: c.a.x, y: c.a.y, width: c.b.x, height: c.size), color: .magenta)
    image.drawText("Hi 9%", at: c.a, scale: Int(exactly: c.size.isFinite ? c.size.rounded() : 1) ?? 1000,
                   color: .white, background: .black)
    #expect(image.width == 16 && image.height == 12 && image.pixels.count == 16 * 12 * 3)
}

@Test func emptyImagesAcceptDrawing() {
    var image = RGBImage(width: 0, height: 0)
    image.drawLine(from: Point(x: 0, y: 0), to: Point(x: 5, y: 5), width: 3, color: .red)
    image.drawText("x", at: Point(x: 0, y: 0), color: .red, background: .white)
    image.fillCircle(center: Point(x: 0, y: 0), radius: 4, color: .red)
    #expect(image.pixels.isEmpty)
}

@Test func horizontalLinePutsInkOnItsRowOnly() {
    var image = RGBImage(width: 20, height: 9)
    // Along the centres of row 4, 1 px wide, from x = 2.5 to 15.5 (round caps add 0.5).
    image.drawLine(from: Point(x: 2.5, y: 4.5), to: Point(x: 15.5, y: 4.5), width: 1, color: .white)
    for x in 2...15 { #expect(image.pixel(x: x, y: 4) == .white) }
    for x in 0..<20 {
        #expect(image.pixel(x: x, y: 3) == .black)
        #expect(image.pixel(x: x, y: 5) == .black)
    }
    #expect(image.pixel(x: 0, y: 4) == .black && image.pixel(x: 18, y: 4) == .black)
}

@Test func diagonalThickLineCoversItsCorridor() {
    var image = RGBImage(width: 40, height: 40)
    image.drawLine(from: Point(x: 5, y: 5), to: Point(x: 35, y: 35), width: 4, color: .white)
    // On the diagonal: full ink. 6 px away from it (perpendicular): none.
    for t in stride(from: 8, through: 32, by: 4) {
        #expect(image.pixel(x: t, y: t) == .white)
        #expect(image.pixel(x: t + 4, y: t - 4) == .black)   // distance 5.7
    }
    // Anti-aliased: some pixels partially covered.
    #expect(image.pixels.contains { $0 > 0 && $0 < 255 })
}

@Test func filledCircleInkIsInsideItsRadius() {
    var image = RGBImage(width: 30, height: 30)
    let center = Point(x: 15, y: 15)
    image.fillCircle(center: center, radius: 6, color: .white)
    for y in 0..<30 {
        for x in 0..<30 {
            let dx = Float(x) + 0.5 - center.x, dy = Float(y) + 0.5 - center.y
            let distance = (dx * dx + dy * dy).squareRoot()
            let value = image.pixel(x: x, y: y)!.r
            if distance <= 5.5 { #expect(value == 255) }
            if distance >= 6.5 { #expect(value == 0) }
        }
    }
}

@Test func circleOutlineLeavesTheCentreEmpty() {
    var image = RGBImage(width: 30, height: 30)
    image.drawCircle(center: Point(x: 15, y: 15), radius: 8, width: 2, color: .white)
    #expect(image.pixel(x: 15, y: 15) == .black)
    #expect(image.pixel(x: 22, y: 14)!.r > 200)   // centre (22.5, 14.5): distance 7.5
    #expect(image.pixel(x: 14, y: 7)!.r > 200)
    #expect(image.pixel(x: 27, y: 15) == .black)
}

@Test func rectangleOutlineIsCrispOnPixelEdges() {
    var image = RGBImage(width: 12, height: 10)
    // Edges at x = 2, 9 and y = 2, 7 with a 2-px stroke centred on them.
    image.drawRectangle(Rect(x: 2, y: 2, width: 7, height: 5), width: 2, color: .white)
    let inked = Set(TestImages.inkedPixels(image).map { "\($0.x),\($0.y)" })
    // The stroke spans [1, 3) and [8, 10) horizontally, [1, 3) and [6, 8) vertically.
    var expected: Set<String> = []
    for y in 1..<8 { for x in 1..<10 where x < 3 || x >= 8 || y < 3 || y >= 6 { expected.insert("\(x),\(y)") } }
    #expect(inked == expected)
    #expect(image.pixels.allSatisfy { $0 == 0 || $0 == 255 })
}

@Test func polylineJointsAreNotDoubleBlended() {
    var image = RGBImage(width: 20, height: 20)
    image.drawPolyline([Point(x: 2, y: 10), Point(x: 10, y: 10), Point(x: 18, y: 10.3)], width: 3,
                       color: .white, opacity: 0.5)
    // Half opacity over black: no pixel may exceed 128 however many segments cover it.
    #expect(image.pixels.max()! <= 128)
    #expect(image.pixel(x: 10, y: 9)!.r == 128)
}

@Test func closedPolylineJoinsLastToFirst() {
    var open = RGBImage(width: 20, height: 20), closed = RGBImage(width: 20, height: 20)
    let square = [Point(x: 3, y: 3), Point(x: 16, y: 3), Point(x: 16, y: 16), Point(x: 3, y: 16)]
    open.drawPolyline(square, color: .white)
    closed.drawPolyline(square, closed: true, color: .white)
    #expect(open.pixel(x: 3, y: 9) == .black)
    #expect(closed.pixel(x: 2, y: 9)!.r > 100 || closed.pixel(x: 3, y: 9)!.r > 100)
}

@Test func opacityBlendsTowardsTheColour() {
    var image = RGBImage(width: 4, height: 4, fill: (100, 100, 100))
    image.fillRectangle(Rect(x: 0, y: 0, width: 4, height: 4), color: RGBColor(r: 200, g: 0, b: 100), opacity: 0.25)
    #expect(image.pixel(x: 2, y: 2) == RGBColor(r: 125, g: 75, b: 100))
}

@Test(arguments: [Rect(x: 2.3, y: 1.7, width: 10.2, height: 6.9), Rect(x: 14.6, y: 9.2, width: -9.1, height: -5.5),
                  Rect(x: 3, y: 3, width: 0.5, height: 8)])
func fractionalRectangleOutlineHasExactAreaCoverage(_ rect: Rect) {
    var image = RGBImage(width: 18, height: 13)
    let stroke: Float = 1.6
    image.drawRectangle(rect, width: stroke, color: .white)
    // Independent reference: stroke area inside each pixel square.
    let x0 = Double(min(rect.x, rect.x + rect.width)), x1 = Double(max(rect.x, rect.x + rect.width))
    let y0 = Double(min(rect.y, rect.y + rect.height)), y1 = Double(max(rect.y, rect.y + rect.height))
    let h = Double(stroke) / 2
    func overlap(_ a0: Double, _ a1: Double, _ p: Int) -> Double { max(0, min(a1, Double(p + 1)) - max(a0, Double(p))) }
    for y in 0..<13 {
        for x in 0..<18 {
            let outer = overlap(x0 - h, x1 + h, x) * overlap(y0 - h, y1 + h, y)
            let hasHole = x1 - x0 > 2 * h && y1 - y0 > 2 * h
            let inner = hasHole ? overlap(x0 + h, x1 - h, x) * overlap(y0 + h, y1 - h, y) : 0
            let expected = UInt8(255 * (outer - inner) + 0.5)
            #expect(abs(Int(image.pixel(x: x, y: y)!.r) - Int(expected)) <= 1, "pixel \(x),\(y)")
        }
    }
}

@Test func polylineWithSegmentsOffTheImageStillDrawsTheVisibleOnes() {
    var image = RGBImage(width: 20, height: 12)
    // Segment 1 lies entirely outside; segment 3 is the only one on row 5 at x = 10…15.
    image.drawPolyline([Point(x: -100, y: -100), Point(x: -50, y: -100), Point(x: 5.5, y: 5.5), Point(x: 15.5, y: 5.5)],
                       color: .white)
    for x in 6...15 { #expect(image.pixel(x: x, y: 5) == .white) }
    #expect(image.pixel(x: 10, y: 8) == .black)
}
