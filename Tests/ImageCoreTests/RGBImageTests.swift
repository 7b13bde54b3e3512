import ImageCore
import Testing

@Test func fillColourIsWrittenToEveryPixel() {
    let image = RGBImage(width: 3, height: 2, fill: (10, 20, 30))
    #expect(image.pixels.count == 18)
    #expect(image.pixels == Array([[UInt8]](repeating: [10, 20, 30], count: 6).joined()))
}
