import ImageCore
import Testing

/// What `TensorSampler.sample` does, checked on both of its loops (the C fast
/// path and the Swift reference loop): where each tensor pixel samples, how
/// values are scaled, and that everything outside the image is black.
@Suite struct TensorSamplerTests {
    /// `image` sampled into a `size × size` tensor (raw byte values unless told).
    static func sampled(_ image: RGBImage, _ transform: AffineMap, size: Int, valueScale: Float = 1, valueOffset: Float = 0,
                        flipHorizontal: Bool = false, supersample: Bool = false, referenceLoop: Bool) -> [Float] {
        var tensor = [Float](repeating: .nan, count: size * size * 3)
        tensor.withUnsafeMutableBufferPointer { buffer in
            TensorSampler.sample(image, transform: transform, size: size, valueScale: valueScale, valueOffset: valueOffset,
                                 flipHorizontal: flipHorizontal, supersample: supersample, referenceLoop: referenceLoop, into: buffer)
        }
        return tensor
    }

    @Test(arguments: [false, true])
    func identityCopiesTheImage(_ referenceLoop: Bool) {
        let image = TestImages.noise(width: 23, height: 23)
        let tensor = Self.sampled(image, .identity, size: 23, referenceLoop: referenceLoop)
        #expect(tensor == image.pixels.map(Float.init))
    }

    @Test(arguments: [false, true])
    func integerTranslationShiftsPixelsAndBlackensTheOutside(_ referenceLoop: Bool) {
        let image = TestImages.noise(width: 8, height: 8)
        let tensor = Self.sampled(image, .translation(x: 3, y: -2), size: 8, referenceLoop: referenceLoop)
        for v in 0..<8 {
            for u in 0..<8 {
                let expected = image.pixel(x: u + 3, y: v - 2) ?? .black
                let o = (v * 8 + u) * 3
                #expect(Array(tensor[o..<(o + 3)]) == [Float(expected.r), Float(expected.g), Float(expected.b)])
            }
        }
    }

    @Test(arguments: [false, true])
    func quarterPixelShiftInterpolatesLinearly(_ referenceLoop: Bool) {
        let image = RGBImage(width: 2, height: 1, pixels: [0, 0, 0, 200, 100, 50])
        #expect(Self.sampled(image, .translation(x: 0.25, y: 0), size: 1, referenceLoop: referenceLoop) == [50, 25, 12.5])
    }

    struct RotationCase: Sendable, CustomTestStringConvertible {
        let degrees: Float
        /// Where the marker at pixel (6, 2) of a 9×9 image appears after turning the picture about its centre.
        let expected: (x: Int, y: Int)
        var testDescription: String { "\(degrees)°" }
        static let all: [RotationCase] = [
            // Turning the picture by +90° (clockwise on screen) about its centre: (6, 2) → (6, 6).
            .init(degrees: 90, expected: (6, 6)),
            .init(degrees: 180, expected: (2, 6)),
            .init(degrees: -90, expected: (2, 2)),
        ]
    }

    @Test(arguments: RotationCase.all, [false, true])
    func rotatedMapMovesTheMarker(_ testCase: RotationCase, _ referenceLoop: Bool) throws {
        let image = TestImages.marker(width: 9, height: 9, at: 6, 2)
        let turn = AffineMap.rotation(radians: testCase.degrees * .pi / 180, about: Point(x: 4.5, y: 4.5))
        let tensor = Self.sampled(image, try #require(turn.inverted()), size: 9, referenceLoop: referenceLoop)
        let red = (0..<81).filter { tensor[$0 * 3] > 200 }
        #expect(red == [testCase.expected.y * 9 + testCase.expected.x])
    }

    static let normalizations: [(scale: Float, offset: Float)] = [(1 / 255, 0), (2 / 255, -1), (3, 5)]

    @Test(arguments: normalizations, [false, true])
    func valuesAreScaledAndOffset(_ normalization: (scale: Float, offset: Float), _ referenceLoop: Bool) {
        let image = TestImages.noise(width: 5, height: 5)
        let tensor = Self.sampled(image, .identity, size: 5, valueScale: normalization.scale, valueOffset: normalization.offset,
                                  referenceLoop: referenceLoop)
        #expect(tensor == image.pixels.map { Float($0) * normalization.scale + normalization.offset })
    }

    @Test(arguments: [
        AffineMap.translation(x: -10, y: -10),
        AffineMap(a: 1e30, b: 0, c: 0, d: 1e30, tx: 1e30, ty: 1e30),
        AffineMap(a: -1e30, b: 0, c: 0, d: -1e30, tx: -1e30, ty: -1e30),
        AffineMap(a: 3e38, b: 0, c: 0, d: 3e38, tx: 3e38, ty: 3e38),
        AffineMap(a: .nan, b: 0, c: 0, d: 1, tx: 0, ty: 0),
        AffineMap(a: 1, b: 0, c: 0, d: 1, tx: .infinity, ty: 0),
    ], [false, true])
    func outsideTheImageIsNormalisedBlack(_ transform: AffineMap, _ referenceLoop: Bool) {
        let image = RGBImage(width: 4, height: 4, fill: (255, 255, 255))
        let tensor = Self.sampled(image, transform, size: 6, valueScale: 2 / 255, valueOffset: -1, referenceLoop: referenceLoop)
        #expect(tensor.allSatisfy { $0 == -1 })
    }

    @Test(arguments: [false, true])
    func flippedTensorReversesColumns(_ referenceLoop: Bool) {
        let image = TestImages.noise(width: 9, height: 9)
        let plain = Self.sampled(image, .identity, size: 9, referenceLoop: referenceLoop)
        let mirrored = Self.sampled(image, .identity, size: 9, flipHorizontal: true, referenceLoop: referenceLoop)
        for v in 0..<9 {
            for u in 0..<9 {
                let o = (v * 9 + u) * 3, m = (v * 9 + 8 - u) * 3
                #expect(Array(mirrored[o..<(o + 3)]) == Array(plain[m..<(m + 3)]))
            }
        }
    }

    @Test func supersamplingAveragesWhatOneTapAliases() {
        // A fine checkerboard shrunk 8×, one tap per pixel on pixel centres
        // that are all white; supersampled, every tap blends two neighbours.
        var checker = RGBImage(width: 256, height: 256)
        for y in 0..<256 { for x in 0..<256 where (x + y) % 2 == 0 { checker.setPixel(x: x, y: y, to: .white) } }
        let shrink = AffineMap.scale(8).followed(by: .translation(x: -3.5, y: -3.5))
        let aliased = Self.sampled(checker, shrink, size: 32, referenceLoop: false)
        #expect(aliased.allSatisfy { $0 == 255 })
        let averaged = Self.sampled(checker, shrink, size: 32, supersample: true, referenceLoop: false)
        let inner = (1..<32).flatMap { v in (1..<32).map { u in averaged[(v * 32 + u) * 3 + 1] } }
        #expect(inner.allSatisfy { abs($0 - 127.5) <= 0.01 })
    }

    @Test func cropCopiesOneToOneAndBlackensTheOutside() {
        let image = TestImages.noise(width: 10, height: 6)
        var tensor = [Float](repeating: .nan, count: 5 * 4 * 3)
        tensor.withUnsafeMutableBufferPointer {
            TensorSampler.crop(image, x: 7, y: -1, width: 5, height: 4, valueScale: 2 / 255, valueOffset: -1, into: $0)
        }
        for row in 0..<4 {
            for column in 0..<5 {
                let pixel = image.pixel(x: 7 + column, y: row - 1) ?? .black
                let expected: [Float] = [pixel.r, pixel.g, pixel.b].map { Float($0) * (2 / 255) - 1 }
                let o = (row * 5 + column) * 3
                #expect(Array(tensor[o..<(o + 3)]) == expected)
            }
        }
    }
}
