import ImageCodecs
import ImageCore
import Testing

@Suite struct PNGDecodeTests {
    struct FlavourCase: CustomTestStringConvertible, Sendable {
        var colorType: PNGRawImage.ColorType
        var bitDepth: Int
        var interlaced: Bool
        var testDescription: String { "\(colorType) \(bitDepth)-bit\(interlaced ? " Adam7" : "")" }
    }

    static let flavours: [FlavourCase] = {
        let depths: [(PNGRawImage.ColorType, [Int])] = [
            (.grey, [1, 2, 4, 8, 16]), (.rgb, [8, 16]), (.palette, [1, 2, 4, 8]), (.greyAlpha, [8, 16]), (.rgba, [8, 16]),
        ]
        return depths.flatMap { type, bits in
            bits.flatMap { depth in [false, true].map { FlavourCase(colorType: type, bitDepth: depth, interlaced: $0) } }
        }
    }()

    /// A PNG of every colour type and bit depth, written by libpng from packed
    /// samples, and the RGB the decoder must produce (alpha composited over black).
    static func make(_ flavour: FlavourCase, width: Int = 13, height: Int = 7) throws -> (png: [UInt8], expected: [UInt8], hasAlpha: Bool) {
        let depth = flavour.bitDepth, maxSample = (1 << depth) - 1
        let channels = flavour.colorType.channels
        let noise = TestImages.noise(count: width * height * channels * 2 + 1024, seed: UInt64(depth * 31 + Int(flavour.colorType.rawValue)))
        var samples = (0..<(width * height * channels)).map { (Int(noise[2 * $0]) << 8 | Int(noise[2 * $0 + 1])) & maxSample }
        if channels == 2 || channels == 4 {
            // Make sure fully transparent and fully opaque pixels occur.
            samples[channels - 1] = 0
            samples[2 * channels - 1] = maxSample
        }
        var palette: [UInt8] = [], transparency: [UInt8] = []
        if flavour.colorType == .palette {
            palette = Array(noise[(noise.count - 3 * (1 << depth))...])
            transparency = (0..<min(1 << depth, 200)).map { UInt8(255 - ($0 * 37) % 256) }
            transparency[0] = 0
            samples[0] = 0
        }
        // Expected 8-bit output.
        func to8(_ v: Int) -> Double { depth == 16 ? Double(v) * 255 / 65535 : Double(v * 255 / maxSample) }
        var expected: [UInt8] = []
        for pixel in 0..<(width * height) {
            let s = Array(samples[(pixel * channels)..<((pixel + 1) * channels)])
            let rgb: [Double], alpha: Double
            switch flavour.colorType {
            case .grey: rgb = [to8(s[0]), to8(s[0]), to8(s[0])]; alpha = 255
            case .rgb: rgb = [to8(s[0]), to8(s[1]), to8(s[2])]; alpha = 255
            case .palette:
                rgb = (0..<3).map { Double(palette[3 * s[0] + $0]) }
                alpha = s[0] < transparency.count ? Double(transparency[s[0]]) : 255
            case .greyAlpha: rgb = [to8(s[0]), to8(s[0]), to8(s[0])]; alpha = to8(s[1])
            case .rgba: rgb = [to8(s[0]), to8(s[1]), to8(s[2])]; alpha = to8(s[3])
            }
            expected += rgb.map { UInt8((($0.rounded() * alpha.rounded()) / 255).rounded()) }
        }
        // Pack rows MSB first / big-endian.
        var raw = PNGRawImage(width: width, height: height, colorType: flavour.colorType, bitDepth: depth, rows: [])
        raw.interlaced = flavour.interlaced
        raw.palette = palette
        raw.transparency = transparency
        var rows = [UInt8](repeating: 0, count: raw.rowStride * height)
        for y in 0..<height {
            for i in 0..<(width * channels) {
                let v = samples[y * width * channels + i], rowStart = y * raw.rowStride
                if depth == 16 {
                    rows[rowStart + 2 * i] = UInt8(v >> 8); rows[rowStart + 2 * i + 1] = UInt8(v & 0xFF)
                } else {
                    let bit = i * depth
                    rows[rowStart + bit / 8] |= UInt8(v << (8 - depth - bit % 8))
                }
            }
        }
        raw.rows = rows
        let png = try PNGEncoder.encode(raw, options: PNGEncodeOptions())
        return (png, expected, channels == 2 || channels == 4 || !transparency.isEmpty)
    }

    @Test(arguments: flavours)
    func decodesEveryColourTypeAndDepth(_ flavour: FlavourCase) throws {
        let (png, expected, hasAlpha) = try Self.make(flavour)
        let decoded = try ImageDecoder.decode(png)
        #expect(decoded.format == .png && decoded.hadAlpha == hasAlpha)
        #expect(decoded.image.width == 13 && decoded.image.height == 7)
        #expect(decoded.warnings.isEmpty, "\(decoded.warnings)")
        // Lossless: exact for ≤ 8 bits; 16→8-bit reduction may round either way.
        let tolerance = flavour.bitDepth == 16 ? 1 : 0
        #expect(TestImages.maxAbsoluteDifference(decoded.image.pixels, expected) <= tolerance)
    }

    @Test func alphaCompositesOverTheChosenBackground() throws {
        let raw = PNGRawImage(width: 2, height: 1, colorType: .rgba, bitDepth: 8, rows: [200, 100, 50, 0, 200, 100, 50, 128])
        let png = try PNGEncoder.encode(raw, options: PNGEncodeOptions())
        #expect(try ImageDecoder.decode(png).image.pixels == [0, 0, 0, 100, 50, 25])
        let white = try ImageDecoder.decode(png, options: DecodeOptions(alphaBackground: (255, 255, 255)))
        #expect(white.image.pixels == [255, 255, 255, 227, 177, 152])
    }

    @Test func colourKeyTransparency() throws {
        var grey = PNGRawImage(width: 3, height: 1, colorType: .grey, bitDepth: 8, rows: [10, 77, 200])
        grey.transparentColour = (77, 0, 0)
        let decodedGrey = try ImageDecoder.decode(try PNGEncoder.encode(grey, options: PNGEncodeOptions()))
        #expect(decodedGrey.hadAlpha)
        #expect(decodedGrey.image.pixels == [10, 10, 10, 0, 0, 0, 200, 200, 200])
        var rgb = PNGRawImage(width: 2, height: 1, colorType: .rgb, bitDepth: 8, rows: [1, 2, 3, 9, 8, 7])
        rgb.transparentColour = (9, 8, 7)
        let decodedRGB = try ImageDecoder.decode(try PNGEncoder.encode(rgb, options: PNGEncodeOptions()), options: DecodeOptions(alphaBackground: (255, 0, 255)))
        #expect(decodedRGB.image.pixels == [1, 2, 3, 255, 0, 255])
    }

    @Test(arguments: [false, true])
    func exifOrientationFromEXIfChunk(bigEndian: Bool) throws {
        for orientation in ExifOrientation.allCases {
            var raw = PNGRawImage(width: 3, height: 2, colorType: .rgb, bitDepth: 8, rows: TestImages.noise(count: 18))
            raw.exif = TestImages.exifTIFF(orientation: UInt16(orientation.rawValue), bigEndian: bigEndian)
            let decoded = try ImageDecoder.decode(try PNGEncoder.encode(raw, options: PNGEncodeOptions()))
            #expect(decoded.orientation == orientation)
            #expect(decoded.uprightWidth == (orientation.swapsDimensions ? 2 : 3))
            #expect(decoded.image.pixels == raw.rows)
        }
    }

    @Test func malformedEXIfChunkWarns() throws {
        var raw = PNGRawImage(width: 1, height: 1, colorType: .rgb, bitDepth: 8, rows: [1, 2, 3])
        raw.exif = Array("MM\0*garbage".utf8)
        let decoded = try ImageDecoder.decode(try PNGEncoder.encode(raw, options: PNGEncodeOptions()))
        #expect(decoded.orientation == .topLeft && decoded.warnings.count == 1)
        #expect(decoded.image.pixels == [1, 2, 3])
    }

    @Test func extremeShapesDecode() throws {
        for (width, height) in [(1, 1), (10000, 10), (10, 10000)] {
            let image = RGBImage(width: width, height: height, pixels: TestImages.noise(count: width * height * 3))
            let decoded = try ImageDecoder.decode(try PNGEncoder.encode(image))
            #expect(decoded.image == image)
        }
    }
}

@Suite struct UprightTests {
    @Test func rightTopRotatesClockwise() throws {
        // Stored 2×1: red, blue. Orientation 6 (rotate 90° clockwise) → upright 1×2: red on top, blue below.
        var raw = PNGRawImage(width: 2, height: 1, colorType: .rgb, bitDepth: 8, rows: [255, 0, 0, 0, 0, 255])
        raw.exif = TestImages.exifTIFF(orientation: 6, bigEndian: false)
        let decoded = try ImageDecoder.decode(try PNGEncoder.encode(raw, options: PNGEncodeOptions()))
        let upright = decoded.uprightImage()
        #expect(upright.width == decoded.uprightWidth && upright.height == decoded.uprightHeight)
        #expect(upright.width == 1 && upright.height == 2)
        #expect(upright.pixels == [255, 0, 0, 0, 0, 255])
    }
}
