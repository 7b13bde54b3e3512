import ImageCore
import Testing

/// The detectors' letterbox: ``SquareRegion/letterbox(width:height:)`` and
/// `TensorSampler.resize` of that square.
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

/// The letterbox tensor of `image` as raw byte values (`side × side × 3`).
func letterboxTensor(_ image: RGBImage, side: Int) -> (tensor: [Float], region: SquareRegion) {
    let region = SquareRegion.letterbox(width: image.width, height: image.height)
    var tensor = [Float](repeating: .nan, count: side * side * 3)
    tensor.withUnsafeMutableBufferPointer {
        TensorSampler.resize(image, region: region, size: side, valueScale: 1, valueOffset: 0, into: $0)
    }
    return (tensor, region)
}

@Test(arguments: LetterboxCase.all)
func letterboxPadsEvenlyAndMapsBack(_ testCase: LetterboxCase) throws {
    var image = RGBImage(width: testCase.width, height: testCase.height, fill: (200, 200, 200))
    image.setPixel(x: testCase.width / 3, y: testCase.height / 2, to: .white)
    let (tensor, region) = letterboxTensor(image, side: testCase.side)
    let longer = Float(max(testCase.width, testCase.height))
    #expect(region.side == longer)
    #expect(region.x == (Float(testCase.width) - longer) / 2 && region.y == (Float(testCase.height) - longer) / 2)

    // Round trip image pixel → tensor → image pixel.
    let toImage = region.samplingTransform(tensorSize: testCase.side)
    let p = Point(x: Float(testCase.width) * 0.3, y: Float(testCase.height) * 0.8)
    let back = toImage.map(try #require(toImage.inverted()).map(p))
    #expect(abs(back.x - p.x) < 1e-2 && abs(back.y - p.y) < 1e-2)

    // The padding is black, the content grey: check rows and columns well inside each.
    let side = testCase.side
    func green(_ u: Int, _ v: Int) -> Float { tensor[(v * side + u) * 3 + 1] }
    let padLeft = -region.x / region.side * Float(side), padTop = -region.y / region.side * Float(side)
    if padLeft >= 2 {
        #expect(green(0, side / 2) == 0)
        #expect(green(Int(padLeft) + 2, side / 2) >= 190)
    }
    if padTop >= 2 {
        #expect(green(side / 2, 0) == 0)
        #expect(green(side / 2, Int(padTop) + 2) >= 190)
    }
    #expect(green(side / 2, side / 2) >= 190)
    #expect(!tensor.contains { $0.isNaN })
}

@Test func letterboxPutsAMarkerWhereTheMapSays() throws {
    // A 3×3 white block at (150, 30) in a 200×100 image, letterboxed into 100.
    var image = RGBImage(width: 200, height: 100)
    for y in 29...31 { for x in 149...151 { image.setPixel(x: x, y: y, to: .white) } }
    let (tensor, region) = letterboxTensor(image, side: 100)
    let brightest = try #require((0..<(100 * 100)).max { tensor[$0 * 3] < tensor[$1 * 3] })
    let centre = Point(x: Float(brightest % 100) + 0.5, y: Float(brightest / 100) + 0.5)
    let source = region.samplingTransform(tensorSize: 100).map(centre)
    #expect(abs(source.x - 150.5) <= 2 && abs(source.y - 30.5) <= 2)
}

@Test func letterboxOfAConstantImageIsConstantInside() {
    let image = RGBImage(width: 300, height: 170, fill: (17, 128, 251))
    let (tensor, _) = letterboxTensor(image, side: 64)
    // The picture covers tensor rows 13.9…50.1; rows 22…41 have every tap inside it.
    for v in 22..<42 {
        for u in 0..<64 {
            let o = (v * 64 + u) * 3
            #expect(abs(tensor[o] - 17) < 1e-3 && abs(tensor[o + 1] - 128) < 1e-3 && abs(tensor[o + 2] - 251) < 1e-3)
        }
    }
}
