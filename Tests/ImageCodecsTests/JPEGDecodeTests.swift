import ImageCodecs
import ImageCore
import Testing
import _TestSupport

@Suite struct JPEGDecodeTests {
    struct EncodingCase: CustomTestStringConvertible, Sendable {
        var name: String
        var progressive: Bool
        var width: Int
        var height: Int
        var testDescription: String { name }
    }

    static let encodings = [
        EncodingCase(name: "baseline 64x48", progressive: false, width: 64, height: 48),
        EncodingCase(name: "progressive 64x48", progressive: true, width: 64, height: 48),
        EncodingCase(name: "baseline odd 37x23", progressive: false, width: 37, height: 23),
        EncodingCase(name: "progressive odd 37x23", progressive: true, width: 37, height: 23),
    ]

    @Test(arguments: encodings)
    func decodesCloseToTheSource(_ testCase: EncodingCase) throws {
        let source = TestImages.gradient(width: testCase.width, height: testCase.height)
        let decoded = try ImageDecoder.decode(try TestImages.jpeg(source, progressive: testCase.progressive))
        #expect(decoded.format == .jpeg)
        #expect(decoded.image.width == testCase.width && decoded.image.height == testCase.height)
        #expect(decoded.orientation == .topLeft && !decoded.hadAlpha && decoded.warnings.isEmpty)
        // Quality 95, 4:4:4, smooth content: JPEG error stays small. A channel swap or shift would be ≥ 100.
        #expect(TestImages.maxAbsoluteDifference(decoded.image.pixels, source.pixels) <= 8)
        #expect(TestImages.meanAbsoluteDifference(decoded.image.pixels, source.pixels) <= 1.5)
    }

    @Test func greyscaleDecodesToEqualChannels() throws {
        let width = 40, height = 24
        let grey = (0..<(width * height)).map { UInt8(20 + ($0 % width) * 5) }
        let jpeg = try TurboJPEGCompressor().compress(grey, width: width, height: height, input: .grey, quality: 95)
        let decoded = try ImageDecoder.decode(jpeg)
        let pixels = decoded.image.pixels
        for i in 0..<(width * height) {
            #expect(pixels[3 * i] == pixels[3 * i + 1] && pixels[3 * i] == pixels[3 * i + 2])
        }
        let reds = stride(from: 0, to: pixels.count, by: 3).map { pixels[$0] }
        #expect(TestImages.maxAbsoluteDifference(reds, grey) <= 6)
    }

    @Test func adobeCMYKIsInvertedAndConverted() throws {
        // Stored (Adobe-inverted) CMYK samples: 255 = no ink. Expected RGB = stored C × stored K / 255.
        let width = 32, height = 16
        var cmyk = [UInt8](), expected = [UInt8]()
        for y in 0..<height {
            for x in 0..<width {
                let c = UInt8(255 - x * 4), m = UInt8(200 + y * 3), ye = UInt8(120 + x * 2), k = UInt8(230)
                cmyk += [c, m, ye, k]
                expected += [c, m, ye].map { UInt8((Int($0) * Int(k) + 127) / 255) }
            }
        }
        let jpeg = try TurboJPEGCompressor().compress(cmyk, width: width, height: height, input: .cmyk, quality: 98)
        let decoded = try ImageDecoder.decode(jpeg)
        #expect(TestImages.maxAbsoluteDifference(decoded.image.pixels, expected) <= 8)
        #expect(TestImages.meanAbsoluteDifference(decoded.image.pixels, expected) <= 2)
    }

    struct ExifCase: CustomTestStringConvertible, Sendable {
        var orientation: ExifOrientation
        var bigEndian: Bool
        var testDescription: String { "orientation \(orientation.rawValue) \(bigEndian ? "MM" : "II")" }
    }

    @Test(arguments: ExifOrientation.allCases.flatMap { [ExifCase(orientation: $0, bigEndian: false), ExifCase(orientation: $0, bigEndian: true)] })
    func exifOrientationFromAPP1(_ testCase: ExifCase) throws {
        let source = TestImages.gradient(width: 48, height: 32)
        let jpeg = TestImages.insertingExif(TestImages.exifTIFF(orientation: UInt16(testCase.orientation.rawValue), bigEndian: testCase.bigEndian),
                                            into: try TestImages.jpeg(source))
        let decoded = try ImageDecoder.decode(jpeg)
        #expect(decoded.orientation == testCase.orientation)
        #expect(decoded.rawWidth == 48 && decoded.rawHeight == 32)
        let swapped = testCase.orientation.swapsDimensions
        #expect(decoded.uprightWidth == (swapped ? 32 : 48) && decoded.uprightHeight == (swapped ? 48 : 32))
        #expect(decoded.warnings.isEmpty)
        // The EXIF segment changes nothing about the pixels.
        #expect(decoded.image == (try ImageDecoder.decode(try TestImages.jpeg(source))).image)
    }

    @Test func malformedExifKeepsTheImageWithAWarning() throws {
        var tiff = TestImages.exifTIFF(orientation: 6, bigEndian: true)
        tiff[4] = 0x7F  // IFD0 offset far outside the block
        let decoded = try ImageDecoder.decode(TestImages.insertingExif(tiff, into: try TestImages.jpeg(TestImages.gradient(width: 16, height: 16))))
        #expect(decoded.orientation == .topLeft)
        #expect(decoded.warnings.count == 1)
        #expect(decoded.image.width == 16)
    }

    struct ScaleCase: CustomTestStringConvertible, Sendable {
        var scale: JPEGScale
        var width: Int
        var height: Int
        var testDescription: String { "1/\(scale.denominator) → \(width)x\(height)" }
    }

    @Test(arguments: [ScaleCase(scale: .full, width: 100, height: 60), ScaleCase(scale: .half, width: 50, height: 30),
                      ScaleCase(scale: .quarter, width: 25, height: 15), ScaleCase(scale: .eighth, width: 13, height: 8)])
    func dctScalingGivesCeilingSizes(_ testCase: ScaleCase) throws {
        let source = TestImages.gradient(width: 100, height: 60)
        let decoded = try ImageDecoder.decode(try TestImages.jpeg(source), options: DecodeOptions(jpegScale: testCase.scale))
        #expect(decoded.image.width == testCase.width && decoded.image.height == testCase.height)
        #expect(decoded.headerWidth == 100 && decoded.headerHeight == 60)
        // Still the same picture: the top-left corner keeps its colour.
        #expect(abs(Int(decoded.image.pixels[0]) - Int(source.pixels[0])) <= 10)
    }

    @Test func everyScaleIsDecodable() throws {
        let jpeg = try TestImages.jpeg(TestImages.gradient(width: 33, height: 17))
        for scale in JPEGScale.allCases {
            let decoded = try ImageDecoder.decode(jpeg, options: DecodeOptions(jpegScale: scale))
            #expect(decoded.image.width == scale.scaled(33) && decoded.image.height == scale.scaled(17))
        }
    }

    @Test func minimumSizePicksTheStrongestSufficientReduction() throws {
        let jpeg = try TestImages.jpeg(TestImages.gradient(width: 400, height: 200))
        let options = DecodeOptions(minimumSize: (width: 90, height: 50))
        let decoded = try ImageDecoder.decode(jpeg, options: options)
        #expect(decoded.image.width == 100 && decoded.image.height == 50)  // 1/4; 1/8 would give 50x25
        // Upright size counts: rotated 90°, the 200-pixel side becomes the width.
        let rotated = TestImages.insertingExif(TestImages.exifTIFF(orientation: 6, bigEndian: false), into: jpeg)
        let decodedRotated = try ImageDecoder.decode(rotated, options: DecodeOptions(minimumSize: (width: 90, height: 150)))
        #expect(decodedRotated.image.width == 200 && decodedRotated.image.height == 100)  // 1/2: upright 100x200
        #expect(JPEGScale.largestReduction(width: 10, height: 10, keepingAtLeast: (500, 500)) == .full)
    }

    @Test func restartMarkersDecodeLikeTheSameImageWithout() throws {
        let restart = try Fixtures.codecs("photo-restart.jpg")
        #expect(restart.indices.dropLast().contains { restart[$0] == 0xFF && (0xD0...0xD7).contains(restart[$0 + 1]) }, "fixture has RSTn markers")
        let withRestarts = try ImageDecoder.decode(restart)
        let without = try ImageDecoder.decode(try Fixtures.codecs("photo-baseline.jpg"))
        #expect(withRestarts.image == without.image)
    }

    struct ReferenceCase: CustomTestStringConvertible, Sendable {
        var jpeg: String
        var reference: String
        var tolerance: Int
        var testDescription: String { jpeg }
    }

    /// References decoded by Pillow (libjpeg-turbo) in scripts/fixtures/codecs_fixtures.py.
    @Test(arguments: [ReferenceCase(jpeg: "photo-restart.jpg", reference: "photo-reference.png", tolerance: 2),
                      ReferenceCase(jpeg: "photo-progressive.jpg", reference: "photo-progressive-reference.png", tolerance: 2),
                      ReferenceCase(jpeg: "photo-cmyk-adobe.jpg", reference: "photo-cmyk-reference.png", tolerance: 2)])
    func matchesAReferenceDecoder(_ testCase: ReferenceCase) throws {
        let decoded = try ImageDecoder.decode(try Fixtures.codecs(testCase.jpeg))
        let reference = try ImageDecoder.decode(try Fixtures.codecs(testCase.reference))
        #expect(decoded.image.width == reference.image.width && decoded.image.height == reference.image.height)
        #expect(TestImages.maxAbsoluteDifference(decoded.image.pixels, reference.image.pixels) <= testCase.tolerance)
    }

    @Test func extremeShapesDecode() throws {
        for (width, height) in [(1, 1), (10000, 10), (10, 10000)] {
            let decoded = try ImageDecoder.decode(try TestImages.jpeg(TestImages.gradient(width: width, height: height), quality: 80))
            #expect(decoded.image.width == width && decoded.image.height == height)
        }
    }

    @Test func decoderIsReusableAcrossFormatsAndErrors() throws {
        let decoder = ImageDecoder()
        let jpeg = try TestImages.jpeg(TestImages.gradient(width: 20, height: 20))
        let first = try decoder.decode(jpeg)
        #expect(throws: ImageDecodeError.self) { try decoder.decode(Array(jpeg.prefix(jpeg.count / 2))) }
        #expect(try decoder.decode(jpeg) == first)
        #expect(try decoder.decode(jpeg[...]) == first)  // ArraySlice: contiguous, same result
    }
}
