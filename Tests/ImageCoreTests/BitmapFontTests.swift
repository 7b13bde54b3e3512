import ImageCore
import Testing

let printableASCII: [Unicode.Scalar] = (32...126).map { Unicode.Scalar(UInt8($0)) }

@Test(arguments: printableASCII.filter { $0 != " " })
func everyPrintableCharacterHasInk(_ character: Unicode.Scalar) {
    #expect(BitmapFont.glyph(for: character).contains { $0 != 0 })
    var image = RGBImage(width: 8, height: 10)
    image.drawText(String(character), at: Point(x: 1, y: 1), color: .white)
    #expect(!TestImages.inkedPixels(image).isEmpty)
    // The ink stays inside the 5×8 glyph box.
    #expect(TestImages.inkedPixels(image).allSatisfy { (1...5).contains($0.x) && (1...8).contains($0.y) })
}

@Test func spaceIsBlank() {
    #expect(BitmapFont.glyph(for: " ").allSatisfy { $0 == 0 })
}

@Test func distinctCharactersHaveDistinctGlyphs() {
    var seen: [[UInt8]: Unicode.Scalar] = [:]
    for character in printableASCII {
        let glyph = BitmapFont.glyph(for: character)
        #expect(seen[glyph] == nil, "\(character) looks like \(seen[glyph].map(String.init) ?? "")")
        seen[glyph] = character
    }
    #expect(seen.count == 95)
}

@Test func nonASCIIDrawsAsQuestionMark() {
    #expect(BitmapFont.glyph(for: "é") == BitmapFont.glyph(for: "?"))
    #expect(BitmapFont.glyph(for: "\u{0}") == BitmapFont.glyph(for: "?"))
}

@Test(arguments: [1, 2, 3])
func scaledTextFillsScaledBlocks(_ scale: Int) {
    var small = RGBImage(width: 40, height: 40), large = RGBImage(width: 40, height: 40)
    small.drawText("A", at: Point(x: 0, y: 0), color: .white)
    large.drawText("A", at: Point(x: 0, y: 0), scale: scale, color: .white)
    for y in 0..<8 * scale {
        for x in 0..<5 * scale {
            #expect(large.pixel(x: x, y: y) == small.pixel(x: x / scale, y: y / scale))
        }
    }
    #expect(BitmapFont.size(of: "AB", scale: scale) == (11 * scale, 8 * scale))
}

@Test func textBackgroundBoxIsPaddedByTheScale() {
    var image = RGBImage(width: 40, height: 30)
    image.drawText("ok", at: Point(x: 10, y: 10), scale: 2, color: .white, background: .blue)
    // Box: x 8 ..< 10 + 22 + 2, y 8 ..< 10 + 16 + 2.
    #expect(image.pixel(x: 8, y: 8) == .blue && image.pixel(x: 33, y: 27) == .blue)
    #expect(image.pixel(x: 7, y: 8) == .black && image.pixel(x: 34, y: 27) == .black && image.pixel(x: 8, y: 28) == .black)
    #expect(image.pixels.contains(255))
}

@Test func multilineTextAdvancesByTheLineHeight() {
    var image = RGBImage(width: 20, height: 30)
    image.drawText("-\n-", at: Point(x: 0, y: 0), color: .white)
    // '-' is row 3: lines at y = 3 and 3 + 9.
    #expect(image.pixel(x: 2, y: 3) == .white && image.pixel(x: 2, y: 12) == .white)
    #expect(BitmapFont.size(of: "ab\nc") == (11, 17))
}
