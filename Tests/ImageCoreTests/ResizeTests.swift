import ImageCore
import Testing

struct ResizeCase: Sendable, CustomTestStringConvertible {
    let from: (Int, Int)
    let to: (Int, Int)
    var testDescription: String { "\(from.0)x\(from.1) -> \(to.0)x\(to.1)" }
    static let all: [ResizeCase] = [
        .init(from: (640, 480), to: (128, 96)), .init(from: (97, 61), to: (13, 7)),
        .init(from: (10, 10), to: (3, 3)), .init(from: (5, 4), to: (17, 11)),
        .init(from: (1, 1), to: (4, 2)), .init(from: (300, 7), to: (299, 1)),
    ]
}

@Test(arguments: ResizeCase.all)
func resizingAConstantImageKeepsItConstant(_ testCase: ResizeCase) throws {
    let color = RGBColor(r: 17, g: 128, b: 251)
    let image = RGBImage(width: testCase.from.0, height: testCase.from.1, fill: (color.r, color.g, color.b))
    for resized in [try image.downscaledAreaAverage(width: testCase.to.0, height: testCase.to.1),
                    try image.resizedBilinear(width: testCase.to.0, height: testCase.to.1),
                    try image.resized(width: testCase.to.0, height: testCase.to.1)] {
        #expect(resized.width == testCase.to.0 && resized.height == testCase.to.1)
        #expect(resized == RGBImage(width: testCase.to.0, height: testCase.to.1, fill: (color.r, color.g, color.b)))
    }
}

@Test(arguments: [(2, 2), (3, 3), (4, 2), (5, 7), (8, 8)])
func areaAverageIsTheExactBlockMeanForIntegerFactors(_ factors: (Int, Int)) throws {
    let (fx, fy) = factors
    let outWidth = 6, outHeight = 5
    let image = TestImages.noise(width: outWidth * fx, height: outHeight * fy, seed: UInt32(fx * 31 + fy))
    let reduced = try image.downscaledAreaAverage(width: outWidth, height: outHeight)
    for y in 0..<outHeight {
        for x in 0..<outWidth {
            var sums = [0, 0, 0]
            for v in 0..<fy {
                for u in 0..<fx {
                    let p = image.pixel(x: x * fx + u, y: y * fy + v)!
                    sums[0] += Int(p.r); sums[1] += Int(p.g); sums[2] += Int(p.b)
                }
            }
            // Round half up: (2·sum + area) / (2·area).
            let area = fx * fy
            let expected = sums.map { UInt8((2 * $0 + area) / (2 * area)) }
            #expect(reduced.pixel(x: x, y: y) == RGBColor(r: expected[0], g: expected[1], b: expected[2]))
        }
    }
}

@Test func areaAverageWeighsFractionalCoverage() throws {
    // 3 pixels → 2: output 0 covers [0, 1.5) = p0 + half of p1.
    let image = RGBImage(width: 3, height: 1, pixels: [0, 0, 0, 90, 90, 90, 200, 200, 200])
    let reduced = try image.downscaledAreaAverage(width: 2, height: 1)
    #expect(reduced.pixels == [30, 30, 30, 163, 163, 163])   // (0 + 45)/1.5, (45 + 200)/1.5 = 163.3
}

@Test func bilinearMatchesHandComputedValues() throws {
    // 2×1 → 4×1 with half-pixel centres: src x = (i + 0.5)/2 − 0.5 = −0.25 (clamped 0), 0.25, 0.75, 1.25 (clamped 1).
    let image = RGBImage(width: 2, height: 1, pixels: [0, 100, 200, 100, 200, 0])
    let up = try image.resizedBilinear(width: 4, height: 1)
    #expect(up.pixels == [0, 100, 200, 25, 125, 150, 75, 175, 50, 100, 200, 0])

    // 4×4 → 2×2 samples at 0.5, 2.5: the mean of each 2×2 quad for a ramp.
    var ramp = RGBImage(width: 4, height: 4)
    for y in 0..<4 { for x in 0..<4 { ramp.setPixel(x: x, y: y, to: RGBColor(gray: UInt8(x * 10 + y * 40))) } }
    let down = try ramp.resizedBilinear(width: 2, height: 2)
    #expect(down.pixels.enumerated().filter { $0.offset % 3 == 0 }.map(\.element) == [25, 45, 105, 125])
}

@Test(arguments: [(0, 5), (5, 0), (-1, 3), (1 << 20, 2)])
func invalidSizesThrowTypedErrors(_ size: (Int, Int)) {
    let image = TestImages.noise(width: 8, height: 8)
    #expect(throws: ImageCoreError.self) { try image.downscaledAreaAverage(width: size.0, height: size.1) }
    #expect(throws: ImageCoreError.self) { try image.resizedBilinear(width: size.0, height: size.1) }
}

@Test func emptySourcesThrow() {
    let empty = RGBImage(width: 0, height: 0)
    #expect(throws: ImageCoreError.emptySource(operation: "area average")) { try empty.downscaledAreaAverage(width: 2, height: 2) }
}

struct CropCase: Sendable, CustomTestStringConvertible {
    let rect: Rect
    let expected: (x: Int, y: Int, width: Int, height: Int)?
    var testDescription: String { "\(rect)" }
    static let all: [CropCase] = [
        .init(rect: Rect(x: 2, y: 3, width: 4, height: 2), expected: (2, 3, 4, 2)),
        .init(rect: Rect(x: 1.5, y: 0.2, width: 2, height: 1.1), expected: (1, 0, 3, 2)),
        .init(rect: Rect(x: -5, y: -5, width: 7, height: 6), expected: (0, 0, 2, 1)),
        .init(rect: Rect(x: 8, y: 6, width: 100, height: 100), expected: (8, 6, 2, 2)),
        .init(rect: Rect(x: 20, y: 0, width: 3, height: 3), expected: nil),
        .init(rect: Rect(x: .nan, y: 0, width: 3, height: 3), expected: nil),
        .init(rect: Rect(x: 0, y: 0, width: .infinity, height: 3), expected: nil),
        .init(rect: Rect(x: -1e30, y: -1e30, width: 2e30, height: 2e30), expected: (0, 0, 10, 8)),
        .init(rect: Rect(x: 3, y: 3, width: 0, height: 2), expected: nil),
    ]
}

@Test(arguments: CropCase.all)
func cropClipsToTheImage(_ testCase: CropCase) throws {
    let image = TestImages.noise(width: 10, height: 8)
    guard let expected = testCase.expected else {
        #expect(throws: ImageCoreError.self) { try image.cropped(to: testCase.rect) }
        return
    }
    let crop = try image.cropped(to: testCase.rect)
    #expect(crop.width == expected.width && crop.height == expected.height)
    for y in 0..<crop.height {
        for x in 0..<crop.width {
            #expect(crop.pixel(x: x, y: y) == image.pixel(x: expected.x + x, y: expected.y + y))
        }
    }
}

@Test func grayscaleUsesBT601Weights() {
    let image = RGBImage(width: 4, height: 1, pixels: [255, 0, 0, 0, 255, 0, 0, 0, 255, 200, 200, 200])
    #expect(image.grayscale == [76, 150, 29, 200])
}

@Test func bilinearUpscaleRoundsHalfUp() throws {
    // 1 → 3 levels: src x for output 1 is 0.5 between 0 and 1 → 0.5 exactly.
    let image = RGBImage(width: 2, height: 1, pixels: [0, 1, 254, 1, 2, 255])
    let up = try image.resizedBilinear(width: 4, height: 1)
    // Output 1 samples x = 0.25: 0.25, 1.25, 254.25 → 0, 1, 254; output 2 samples 0.75 → 1, 2, 255.
    #expect(up.pixels == [0, 1, 254, 0, 1, 254, 1, 2, 255, 1, 2, 255])
    let two = try RGBImage(width: 2, height: 1, pixels: [0, 0, 0, 1, 3, 5]).downscaledAreaAverage(width: 1, height: 1)
    #expect(two.pixels == [1, 2, 3])   // 0.5, 1.5, 2.5 round half up
}
