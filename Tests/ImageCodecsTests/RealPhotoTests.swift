import Foundation
import ImageCodecs
import ImageCore
import Testing
import _TestSupport

/// The photos `make sources` extracts (skipped when they are absent).
@Suite(.enabled(if: FileManager.default.fileExists(atPath: Fixtures.photo("astronaut.png").path), "run `make sources` first"))
struct RealPhotoTests {
    struct PhotoCase: CustomTestStringConvertible, Sendable {
        var file: String
        var width: Int
        var height: Int
        var grey = false
        var testDescription: String { file }
    }

    /// Sizes as Pillow reports them.
    static let photos = [
        PhotoCase(file: "astronaut.png", width: 512, height: 512),
        PhotoCase(file: "camera.png", width: 512, height: 512, grey: true),
        PhotoCase(file: "chelsea.png", width: 451, height: 300),
        PhotoCase(file: "coffee.png", width: 600, height: 400),
        PhotoCase(file: "takeo.png", width: 150, height: 225),
        PhotoCase(file: "breakingbad.jpg", width: 1920, height: 1080),
        PhotoCase(file: "einstein.jpg", width: 817, height: 1024, grey: true),
        PhotoCase(file: "mask_white.jpg", width: 680, height: 366),
        PhotoCase(file: "t1.jpg", width: 1280, height: 886),
        PhotoCase(file: "tongue.jpg", width: 940, height: 940),
    ]

    @Test(arguments: photos)
    func decodesAndRoundTripsThroughPNG(_ photo: PhotoCase) throws {
        let decoded = try ImageDecoder.decode(try Fixtures.bytes(Fixtures.photo(photo.file)))
        #expect(decoded.image.width == photo.width && decoded.image.height == photo.height)
        if photo.grey {
            let pixels = decoded.image.pixels
            var equalChannels = true
            for i in stride(from: 0, to: pixels.count, by: 3) where pixels[i] != pixels[i + 1] || pixels[i] != pixels[i + 2] {
                equalChannels = false
            }
            #expect(equalChannels)
        }
        let png = try PNGEncoder.encode(decoded.image)
        #expect(try ImageDecoder.decode(png).image == decoded.image)
    }

    @Test func orientationZeroInARealFileIsAWarning() throws {
        // mask_white.jpg's EXIF says Orientation 0, which TIFF does not define.
        let decoded = try ImageDecoder.decode(try Fixtures.bytes(Fixtures.photo("mask_white.jpg")))
        #expect(decoded.orientation == .topLeft)
        #expect(decoded.warnings == ["EXIF: Orientation value 0 is outside 1...8; orientation 1 assumed"])
    }

    @Test func dctScalingMatchesAFullDecodeDownsampled() throws {
        // 1/8 DCT scaling is the mean of each 8×8 block, up to IDCT rounding and chroma upsampling.
        let bytes = try Fixtures.bytes(Fixtures.photo("t1.jpg"))
        let full = try ImageDecoder.decode(bytes).image
        let eighth = try ImageDecoder.decode(bytes, options: DecodeOptions(jpegScale: .eighth)).image
        #expect(eighth.width == 160 && eighth.height == 111)
        var total = 0, samples = 0
        for by in 0..<(full.height / 8) {
            for bx in 0..<(full.width / 8) {
                for c in 0..<3 {
                    var sum = 0
                    for y in 0..<8 { for x in 0..<8 { sum += Int(full.pixels[((by * 8 + y) * full.width + bx * 8 + x) * 3 + c]) } }
                    total += abs(sum / 64 - Int(eighth.pixels[(by * eighth.width + bx) * 3 + c]))
                    samples += 1
                }
            }
        }
        #expect(Double(total) / Double(samples) < 3.0)
    }
}
