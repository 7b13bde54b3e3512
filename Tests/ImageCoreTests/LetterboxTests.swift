import ImageCore
import Testing

struct LetterboxCase: Sendable, CustomTestStringConvertible {
    let width: Int
    let height: Int
    let side: Int
    var testDescription: String { "\(width)x\(height) in \(side)" }
    static let all: [LetterboxCase] = [
        .init(width: 200, height: 100, side: 128), .init(width: 90, height: 160, side: 192),
        .init(width: 64, height: 64, side: 128), .init(width: 4000, height: 3000, side: 128),
        .init(width: 33, height: 7, side: 16),
    ]
}

@Test(arguments: LetterboxCase.all)
func letterboxPaddingAndItsInverse(_ testCase: LetterboxCase) throws {
    var image = RGBImage(width: testCase.width, height: testCase.height, fill: (200, 200, 200))
    image.setPixel(x: testCase.width / 3, y: testCase.height / 2, to: .white)
    let (boxed, letterbox) = try image.letterboxed(side: testCase.side)
    let longer = Float(max(testCase.width, testCase.height))
    #expect(abs(letterbox.padX - (longer - Float(testCase.width)) / (2 * longer)) < 1e-6)
    #expect(abs(letterbox.padY - (longer - Float(testCase.height)) / (2 * longer)) < 1e-6)
    #expect(boxed.width == testCase.side && boxed.height == testCase.side)

    // Round trip source pixel → normalised letterbox → source pixel.
    let p = Point(x: Float(testCase.width) * 0.3, y: Float(testCase.height) * 0.8)
    let back = letterbox.sourcePixel(fromNormalized: letterbox.normalized(fromSourcePixel: p))
    #expect(abs(back.x - p.x) < 1e-2 && abs(back.y - p.y) < 1e-2)

    // The padding is black, the content grey: check pixel rows/columns well inside each region.
    let side = Float(testCase.side)
    let padLeft = letterbox.padX * side, padTop = letterbox.padY * side
    if padLeft >= 2 {
        #expect(boxed.pixel(x: 0, y: testCase.side / 2) == .black)
        #expect(boxed.pixel(x: Int(padLeft) + 2, y: testCase.side / 2)!.g >= 190)
    }
    if padTop >= 2 {
        #expect(boxed.pixel(x: testCase.side / 2, y: 0) == .black)
        #expect(boxed.pixel(x: testCase.side / 2, y: Int(padTop) + 2)!.g >= 190)
    }
    #expect(boxed.pixel(x: testCase.side / 2, y: testCase.side / 2)!.g >= 190)
}

@Test func letterboxMapsAMarkerWhereTheInverseSays() throws {
    // A 3×3 white block at source (150, 30) in a 200×100 image, letterboxed into 100.
    var image = RGBImage(width: 200, height: 100)
    for y in 29...31 { for x in 149...151 { image.setPixel(x: x, y: y, to: .white) } }
    let (boxed, letterbox) = try image.letterboxed(side: 100)
    // Brightest output pixel.
    var best = (x: 0, y: 0, value: UInt8(0))
    for y in 0..<100 { for x in 0..<100 where boxed.pixel(x: x, y: y)!.r > best.value { best = (x, y, boxed.pixel(x: x, y: y)!.r) } }
    let normalized = Point(x: (Float(best.x) + 0.5) / 100, y: (Float(best.y) + 0.5) / 100)
    let source = letterbox.sourcePixel(fromNormalized: normalized)
    #expect(abs(source.x - 150.5) <= 2 && abs(source.y - 30.5) <= 2)
}

@Test func letterboxTensorMatchesTheImageVariant() throws {
    let image = TestImages.noise(width: 300, height: 170, seed: 11)
    let (boxed, _) = try image.letterboxed(side: 64)
    var tensor = [Float](repeating: .nan, count: 64 * 64 * 3)
    let letterbox = try tensor.withUnsafeMutableBufferPointer { buffer in
        try image.letterbox(into: buffer, side: 64, normalization: .minusOneToOne)
    }
    #expect(letterbox.padX == 0 && letterbox.padY > 0.2)
    for (index, value) in boxed.pixels.enumerated() {
        // The image rounds to bytes; the tensor keeps the fraction.
        #expect(abs(tensor[index] - (Float(value) * 2 / 255 - 1)) <= 1.01 / 255)
    }
}
