import _TestSupport
import ImageCore
import Testing

/// Comparisons with OpenCV and Pillow, independent implementations. The fixtures come
/// from `scripts/fixtures/imagecore_reference.py` (committed; tests never run Python).
enum ReferenceImages {
    struct MalformedPPM: Error, CustomStringConvertible {
        let name: String
        var description: String { "\(name): not a binary 8-bit PPM" }
    }

    /// Reads `Tests/Fixtures/imagecore/<name>`, a binary PPM (P6, maxval 255).
    static func load(_ name: String) throws -> RGBImage {
        let bytes = try Fixtures.bytes(Fixtures.url("imagecore/\(name)"))
        var fields: [Int] = []
        var index = 2
        guard bytes.starts(with: Array("P6".utf8)) else { throw MalformedPPM(name: name) }
        while fields.count < 3, index < bytes.count {
            while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x0A { index += 1 }
            var value = 0, digits = 0
            while index < bytes.count, (0x30...0x39).contains(bytes[index]) {
                value = value * 10 + Int(bytes[index] - 0x30); digits += 1; index += 1
            }
            guard digits > 0 else { throw MalformedPPM(name: name) }
            fields.append(value)
        }
        index += 1   // the single whitespace after maxval
        let (width, height) = (fields[0], fields[1])
        guard fields[2] == 255, bytes.count - index == width * height * 3 else { throw MalformedPPM(name: name) }
        return RGBImage(width: width, height: height, pixels: Array(bytes[index...]))
    }

    /// The largest per-channel difference, or `nil` when the sizes differ.
    static func maximumDifference(_ a: RGBImage, _ b: RGBImage) -> Int? {
        guard a.width == b.width, a.height == b.height else { return nil }
        return zip(a.pixels, b.pixels).map { abs(Int($0) - Int($1)) }.max() ?? 0
    }
}

struct ReferenceResizeCase: Sendable, CustomTestStringConvertible {
    let fixture: String
    let width: Int
    let height: Int
    let bilinear: Bool
    var testDescription: String { fixture }
    static let all: [ReferenceResizeCase] = [
        .init(fixture: "area-17x13.ppm", width: 17, height: 13, bilinear: false),   // OpenCV INTER_AREA
        .init(fixture: "area-40x31.ppm", width: 40, height: 31, bilinear: false),
        .init(fixture: "linear-30x23.ppm", width: 30, height: 23, bilinear: true),  // OpenCV INTER_LINEAR
        .init(fixture: "bilinear-122x94.ppm", width: 122, height: 94, bilinear: true),  // Pillow BILINEAR
        .init(fixture: "bilinear-150x101.ppm", width: 150, height: 101, bilinear: true),
    ]
}

@Test(arguments: ReferenceResizeCase.all)
func resizeMatchesReferenceWithinOneLevel(_ testCase: ReferenceResizeCase) throws {
    let source = try ReferenceImages.load("source.ppm")
    let expected = try ReferenceImages.load(testCase.fixture)
    let resized = testCase.bilinear
        ? try source.resizedBilinear(width: testCase.width, height: testCase.height)
        : try source.downscaledAreaAverage(width: testCase.width, height: testCase.height)
    // OpenCV and Pillow round in fixed point; we work in float: ±1 level.
    let difference = try #require(ReferenceImages.maximumDifference(resized, expected))
    #expect(difference <= 1)
}

@Test(arguments: ExifOrientation.allCases.filter { $0 != .topLeft })
func orientationMatchesPillowExifTranspose(_ orientation: ExifOrientation) throws {
    let raw = try ReferenceImages.load("orient-small.ppm")
    let expected = try ReferenceImages.load("orient-\(orientation.rawValue).ppm")
    #expect(raw.oriented(orientation) == expected)
}
