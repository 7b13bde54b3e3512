import ImageCore
import Testing

struct OrientationCase: Sendable, CustomTestStringConvertible {
    let orientation: ExifOrientation
    /// Where raw pixel (1, 0) of a 4×3 image lands in the upright image.
    let expectedMarker: (x: Int, y: Int)
    let expectedSize: (width: Int, height: Int)
    var testDescription: String { "orientation \(orientation.rawValue)" }

    static let all: [OrientationCase] = [
        .init(orientation: .topLeft, expectedMarker: (1, 0), expectedSize: (4, 3)),
        .init(orientation: .topRight, expectedMarker: (2, 0), expectedSize: (4, 3)),
        .init(orientation: .bottomRight, expectedMarker: (2, 2), expectedSize: (4, 3)),
        .init(orientation: .bottomLeft, expectedMarker: (1, 2), expectedSize: (4, 3)),
        .init(orientation: .leftTop, expectedMarker: (0, 1), expectedSize: (3, 4)),
        .init(orientation: .rightTop, expectedMarker: (2, 1), expectedSize: (3, 4)),
        .init(orientation: .rightBottom, expectedMarker: (2, 2), expectedSize: (3, 4)),
        .init(orientation: .leftBottom, expectedMarker: (0, 2), expectedSize: (3, 4)),
    ]
}

@Test(arguments: OrientationCase.all)
func orientationMovesTheMarkerWhereExpected(_ testCase: OrientationCase) {
    // Raw 4×3 with a marker at (1, 0): asymmetric under all eight orientations.
    let raw = TestImages.marker(width: 4, height: 3, at: 1, 0)
    let upright = raw.oriented(testCase.orientation)
    #expect(upright.width == testCase.expectedSize.width)
    #expect(upright.height == testCase.expectedSize.height)
    let inked = TestImages.inkedPixels(upright)
    #expect(inked.count == 1)
    #expect(inked.first?.x == testCase.expectedMarker.x && inked.first?.y == testCase.expectedMarker.y)

    // The point map agrees with the pixels: the marker's centre lands in the marker pixel.
    let mapped = testCase.orientation.map(point: Point(x: 1.5, y: 0.5), rawWidth: 4, rawHeight: 3)
    #expect(Int(mapped.x.rounded(.down)) == testCase.expectedMarker.x)
    #expect(Int(mapped.y.rounded(.down)) == testCase.expectedMarker.y)
}

/// Sizes inside one 32-pixel tile, across several (with partial last tiles), and one pixel wide or high.
let orientationSizes: [(width: Int, height: Int)] = [(7, 5), (70, 45), (33, 64), (1, 40), (40, 1), (1, 1)]

@Test(arguments: ExifOrientation.allCases, orientationSizes.indices)
func everyPixelOfANoiseImageFollowsThePointMap(_ orientation: ExifOrientation, _ size: Int) throws {
    let (width, height) = orientationSizes[size]
    let raw = TestImages.noise(width: width, height: height)
    let upright = raw.oriented(orientation)
    var misplaced = 0
    for y in 0..<raw.height {
        for x in 0..<raw.width {
            let p = orientation.map(point: Point(x: Float(x) + 0.5, y: Float(y) + 0.5), rawWidth: width, rawHeight: height)
            if upright.pixel(x: Int(p.x), y: Int(p.y)) != raw.pixel(x: x, y: y) { misplaced += 1 }
        }
    }
    #expect(misplaced == 0, "\(width)×\(height)")
}

@Test(arguments: ExifOrientation.allCases)
func inverseOrientationRestoresTheRawImage(_ orientation: ExifOrientation) {
    let raw = TestImages.noise(width: 6, height: 9, seed: 99)
    #expect(raw.oriented(orientation).oriented(orientation.inverse) == raw)
    let point = Point(x: 2.25, y: 7.5)
    let back = orientation.unmap(point: orientation.map(point: point, rawWidth: 6, rawHeight: 9), rawWidth: 6, rawHeight: 9)
    #expect(abs(back.x - point.x) < 1e-5 && abs(back.y - point.y) < 1e-5)
}

@Test func orientingALargeImageMatchesPerPixelRotation() {
    // Crosses the 64-pixel tiles of the copy loop.
    let raw = TestImages.noise(width: 131, height: 70, seed: 5)
    let rotated = raw.oriented(.rightTop)
    #expect(rotated.width == 70 && rotated.height == 131)
    var mismatches = 0
    for y in 0..<raw.height {
        for x in 0..<raw.width where rotated.pixel(x: raw.height - 1 - y, y: x) != raw.pixel(x: x, y: y) {
            mismatches += 1
        }
    }
    #expect(mismatches == 0)
}
