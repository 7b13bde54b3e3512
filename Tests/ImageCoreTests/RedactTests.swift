import ImageCore
import Testing

@Suite struct RedactTests {
    static let region = Rect(x: 20.3, y: 14.6, width: 40, height: 36)

    /// Standard deviation of one channel over columns `x0..<x1`, rows `y0..<y1`.
    static func spread(_ image: RGBImage, _ x0: Int, _ x1: Int, _ y0: Int, _ y1: Int) -> Double {
        var values: [Double] = []
        for y in y0..<y1 { for x in x0..<x1 { values.append(Double(image.pixel(x: x, y: y)!.r)) } }
        let mean = values.reduce(0, +) / Double(values.count)
        return (values.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(values.count)).squareRoot()
    }

    /// Pixels at least `distance` outside the region.
    static func farOutside(_ x: Int, _ y: Int, _ distance: Float) -> Bool {
        let cx = Float(x) + 0.5, cy = Float(y) + 0.5
        return cx < region.x - distance || cx > region.x + region.width + distance
            || cy < region.y - distance || cy > region.y + region.height + distance
    }

    @Test(arguments: RedactionStyle.allCases)
    func changesOnlyTheRegionAndItsFeather(_ style: RedactionStyle) {
        let source = TestImages.noise(width: 80, height: 64)
        var image = source
        image.redact(Self.region, feather: 6, style: style, strength: 6)
        var changedInside = 0
        for y in 0..<64 {
            for x in 0..<80 {
                if Self.farOutside(x, y, 3.5) {
                    #expect(image.pixel(x: x, y: y) == source.pixel(x: x, y: y), "(\(x), \(y)) lies beyond the feather")
                } else if !Self.farOutside(x, y, -3.5), image.pixel(x: x, y: y) != source.pixel(x: x, y: y) {
                    changedInside += 1
                }
            }
        }
        #expect(changedInside > 30 * 26, "nearly every pixel inside the region changes")
    }

    @Test func blurRemovesDetail() {
        let source = TestImages.noise(width: 80, height: 64)
        var image = source
        image.redact(Self.region, feather: 6, style: .blur, strength: 6)
        let before = Self.spread(source, 25, 55, 19, 46), after = Self.spread(image, 25, 55, 19, 46)
        #expect(after < before / 8, "noise spread \(before) → \(after)")
    }

    @Test func pixelateMakesFlatCells() {
        var image = TestImages.noise(width: 80, height: 64)
        image.redact(Self.region, feather: 2, style: .pixelate, strength: 8)
        // Cells are anchored at (20, 14): columns 28..<36, rows 22..<30 are one cell, well inside.
        let first = image.pixel(x: 28, y: 22)
        for y in 22..<30 { for x in 28..<36 { #expect(image.pixel(x: x, y: y) == first) } }
        #expect(image.pixel(x: 36, y: 22) != first, "the next cell has its own mean")
    }

    @Test func fillBlackensTheInsideAndFeathersTheEdge() {
        var image = RGBImage(width: 80, height: 64, fill: (255, 255, 255))
        image.redact(Self.region, feather: 10, style: .fill, strength: 0)
        #expect(image.pixel(x: 40, y: 32) == .black)
        // Along a row through the middle, from far left into the region: no hard step.
        let row = (5..<32).map { Int(image.pixel(x: $0, y: 32)!.r) }
        #expect(zip(row, row.dropFirst()).allSatisfy { $0 >= $1 }, "monotonic fade: \(row)")
        #expect(Set(row.filter { $0 > 0 && $0 < 255 }).count >= 8, "intermediate values across the edge: \(row)")
        #expect(zip(row, row.dropFirst()).allSatisfy { $0 - $1 <= 40 }, "no step larger than 40: \(row)")
        // On the region's outline the weight is ½.
        #expect(abs(Int(image.pixel(x: 20, y: 32)!.r) - 128) <= 20)
    }

    @Test func regionsOutsideThePictureChangeNothing() {
        let source = TestImages.noise(width: 32, height: 32)
        var image = source
        image.redact(Rect(x: 100, y: -50, width: 20, height: 20), feather: 4, style: .blur, strength: 4)
        image.redact(Rect(x: .nan, y: 0, width: 20, height: 20), feather: 4, style: .fill, strength: 0)
        image.redact(Rect(x: 0, y: 0, width: 0, height: 20), feather: 4, style: .fill, strength: 0)
        #expect(image == source)
    }

    /// A blur sigma or cell size far beyond the picture (the library call
    /// takes any finite value) redacts the region like the largest one.
    @Test(arguments: [RedactionStyle.blur, .pixelate])
    func hugeStrengthsRedactLikeTheLargest(_ style: RedactionStyle) {
        let source = TestImages.noise(width: 48, height: 40)
        var huge = source, largest = source
        huge.redact(Rect(x: 8, y: 6, width: 30, height: 26), feather: 4, style: style, strength: 1e30)
        largest.redact(Rect(x: 8, y: 6, width: 30, height: 26), feather: 4, style: style, strength: style == .blur ? 32767 : 1_048_576)
        #expect(huge == largest)
        #expect(huge.pixel(x: 20, y: 20) != source.pixel(x: 20, y: 20))
    }

    @Test func redactingTwiceGivesTheSameBytes() {
        var a = TestImages.noise(width: 300, height: 200), b = a
        a.redact(Rect(x: 40, y: 30, width: 180, height: 150), feather: 30, style: .blur, strength: 27)
        b.redact(Rect(x: 40, y: 30, width: 180, height: 150), feather: 30, style: .blur, strength: 27)
        #expect(a == b)
    }
}
