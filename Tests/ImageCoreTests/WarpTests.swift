import Foundation
import ImageCore
import Testing

@Test(arguments: [WarpBorder.black, .replicate, .constant(.white)])
func identityWarpCopiesTheImage(_ border: WarpBorder) throws {
    let image = TestImages.noise(width: 23, height: 17)
    let warped = try image.warpedAffine(width: 23, height: 17, outputToSource: .identity, border: border)
    #expect(warped == image)
}

@Test func integerTranslationShiftsPixelsAndFillsTheBorder() throws {
    let image = TestImages.noise(width: 8, height: 6)
    let warped = try image.warpedAffine(width: 8, height: 6, outputToSource: .translation(x: 3, y: -2),
                                        border: .constant(RGBColor(r: 1, g: 2, b: 3)))
    for y in 0..<6 {
        for x in 0..<8 {
            let expected = image.pixel(x: x + 3, y: y - 2) ?? RGBColor(r: 1, g: 2, b: 3)
            #expect(warped.pixel(x: x, y: y) == expected)
        }
    }
}

struct RotationCase: Sendable, CustomTestStringConvertible {
    let degrees: Float
    /// Where the marker at source (6, 2) of a 9×9 image appears after rotating the image about its centre.
    let expected: (x: Int, y: Int)
    var testDescription: String { "\(degrees)°" }
    static let all: [RotationCase] = [
        // Rotating the picture by +90° (clockwise on screen) about (4, 4): (6, 2) → (6, 6).
        .init(degrees: 90, expected: (6, 6)),
        .init(degrees: 180, expected: (2, 6)),
        .init(degrees: -90, expected: (2, 2)),
    ]
}

@Test(arguments: RotationCase.all)
func rotationWarpMovesTheMarker(_ testCase: RotationCase) throws {
    let image = TestImages.marker(width: 9, height: 9, at: 6, 2)
    let center = Point(x: 4, y: 4)   // pixel-index convention: the centre pixel
    let pictureRotation = AffineMap.rotation(radians: testCase.degrees * .pi / 180, about: center)
    let outputToSource = try #require(pictureRotation.inverted())
    let warped = try image.warpedAffine(width: 9, height: 9, outputToSource: outputToSource)
    let inked = TestImages.inkedPixels(warped).filter { warped.pixel(x: $0.x, y: $0.y)!.r > 200 }
    #expect(inked.count == 1)
    #expect(inked.first?.x == testCase.expected.x && inked.first?.y == testCase.expected.y)
    // And the transform itself maps the marker there.
    let mapped = pictureRotation.map(Point(x: 6, y: 2))
    #expect(abs(mapped.x - Float(testCase.expected.x)) < 1e-4 && abs(mapped.y - Float(testCase.expected.y)) < 1e-4)
}

@Test func halfPixelShiftInterpolatesLinearly() throws {
    let image = RGBImage(width: 2, height: 1, pixels: [0, 0, 0, 200, 100, 50])
    let warped = try image.warpedAffine(width: 1, height: 1, outputToSource: .translation(x: 0.25, y: 0))
    #expect(warped.pixels == [50, 25, 13])   // 200·0.25, 100·0.25, 12.5 → 13
}

@Test(arguments: [PixelNormalization.zeroToOne, .minusOneToOne, PixelNormalization(scale: SIMD3(1, 2, 3), offset: SIMD3(-1, 0, 5))])
func tensorOutputAppliesScaleAndOffset(_ normalization: PixelNormalization) throws {
    let image = TestImages.noise(width: 5, height: 4)
    var tensor = [Float](repeating: .nan, count: 5 * 4 * 3)
    try tensor.withUnsafeMutableBufferPointer { buffer in
        try image.warpAffine(into: buffer, width: 5, height: 4, outputToSource: .identity, normalization: normalization)
    }
    for (index, value) in image.pixels.enumerated() {
        let channel = index % 3
        let expected = Float(value) * normalization.scale[channel] + normalization.offset[channel]
        #expect(abs(tensor[index] - expected) < 1e-5)
    }
}

@Test func tensorBorderIsNormalisedToo() throws {
    let image = RGBImage(width: 2, height: 2, fill: (255, 255, 255))
    var tensor = [Float](repeating: .nan, count: 4 * 4 * 3)
    try tensor.withUnsafeMutableBufferPointer { buffer in
        try image.warpAffine(into: buffer, width: 4, height: 4, outputToSource: .translation(x: -10, y: -10),
                             normalization: .minusOneToOne)
    }
    #expect(tensor.allSatisfy { $0 == -1 })
}

@Test(arguments: [0, 47, 49])
func tensorBufferOfTheWrongSizeThrows(_ count: Int) {
    let image = TestImages.noise(width: 4, height: 4)
    var tensor = [Float](repeating: 0, count: count)
    #expect(throws: ImageCoreError.tensorBufferSize(expected: 48, actual: count)) {
        try tensor.withUnsafeMutableBufferPointer { buffer in
            try image.warpAffine(into: buffer, width: 4, height: 4, outputToSource: .identity, normalization: .zeroToOne)
        }
    }
}

@Test(arguments: [
    AffineMap(a: .nan, b: 0, c: 0, d: 1, tx: 0, ty: 0),
    AffineMap(a: 1, b: 0, c: 0, d: 1, tx: .infinity, ty: 0),
])
func nonFiniteTransformsThrow(_ transform: AffineMap) {
    let image = TestImages.noise(width: 4, height: 4)
    #expect {
        try image.warpedAffine(width: 4, height: 4, outputToSource: transform)
    } throws: { error in
        guard case ImageCoreError.nonFiniteTransform = error else { return false }
        return true
    }
}

@Test(arguments: [Float(1e30), -1e30, 3e38])
func hugeSampleCoordinatesReadTheBorder(_ offset: Float) throws {
    let image = TestImages.noise(width: 4, height: 4)
    let far = AffineMap(a: offset, b: 0, c: 0, d: offset, tx: offset, ty: offset)
    for border in [WarpBorder.black, .replicate] {
        let warped = try image.warpedAffine(width: 6, height: 6, outputToSource: far, border: border, antialias: false)
        #expect(warped.width == 6)
    }
    let warped = try image.warpedAffine(width: 6, height: 6, outputToSource: far)
    #expect(warped == RGBImage(width: 6, height: 6))
}

@Test func antialiasedDownscalingWarpDoesNotAlias() throws {
    // A fine checkerboard shrunk 8× must come out flat grey. Sampled point-wise
    // at (8i, 8j) it would be all white: that is what antialias: false gives.
    var checker = RGBImage(width: 256, height: 256)
    for y in 0..<256 { for x in 0..<256 where (x + y) % 2 == 0 { checker.setPixel(x: x, y: y, to: .white) } }
    let warped = try checker.warpedAffine(width: 32, height: 32, outputToSource: .scale(8))
    let inner = (1..<32).flatMap { y in (1..<32).map { x in Int(warped.pixel(x: x, y: y)!.g) } }
    #expect(inner.allSatisfy { abs($0 - 128) <= 2 })
    let aliased = try checker.warpedAffine(width: 32, height: 32, outputToSource: .scale(8), antialias: false)
    #expect(aliased.pixels.allSatisfy { $0 == 255 })
}

@Test func roiTransformMapsOutputCornersToTheRectangleCorners() {
    let roi = AffineMap.regionOfInterest(center: Point(x: 100, y: 50), width: 40, height: 20,
                                               rotation: .pi / 2, outputWidth: 192, outputHeight: 96)
    let topLeft = roi.map(Point(x: 0, y: 0)), bottomRight = roi.map(Point(x: 192, y: 96))
    // x axis along (0, 1): the ROI's top-left corner is at centre + R(−20, −10) = (110, 30).
    #expect(abs(topLeft.x - 110) < 1e-3 && abs(topLeft.y - 30) < 1e-3)
    #expect(abs(bottomRight.x - 90) < 1e-3 && abs(bottomRight.y - 70) < 1e-3)
    let center = roi.map(Point(x: 96, y: 48))
    #expect(abs(center.x - 100) < 1e-3 && abs(center.y - 50) < 1e-3)
}

@Test func affineAlgebra() throws {
    let t = AffineMap.rotation(radians: 0.3).followed(by: .scale(x: 2, y: 3)).followed(by: .translation(x: 5, y: -7))
    let p = Point(x: 1.5, y: -4)
    let q = t.map(p)
    let manual = Point(x: 2 * (cos(0.3) * 1.5 + sin(0.3) * 4) + 5, y: 3 * (sin(0.3) * 1.5 - cos(0.3) * 4) - 7)
    #expect(abs(q.x - manual.x) < 1e-4 && abs(q.y - manual.y) < 1e-4)
    let inverse = try #require(t.inverted())
    let back = inverse.map(q)
    #expect(abs(back.x - p.x) < 1e-4 && abs(back.y - p.y) < 1e-4)
    #expect(AffineMap.scale(x: 0, y: 1).inverted() == nil)
    #expect(AffineMap.identity.followed(by: t) == t)
}



@Test func mirroredOutputReversesColumns() throws {
    let image = TestImages.noise(width: 9, height: 5)
    let plain = try image.warpedAffine(width: 9, height: 5, outputToSource: .identity)
    let mirrored = try image.warpedAffine(width: 9, height: 5,
                                          outputToSource: AffineMap.identity.mirroringOutputHorizontally(outputWidth: 9))
    for y in 0..<5 { for x in 0..<9 { #expect(mirrored.pixel(x: x, y: y) == plain.pixel(x: 8 - x, y: y)) } }
}
