import ImageCodecs
import ImageCore
import Testing

@Suite struct PNGEncoderTests {
    static let settings: [PNGEncodeOptions] = [PNGEncodeOptions(), .opencvDefault, .zlibDefault]
        + PNGEncodeOptions.Strategy.allCases.map { PNGEncodeOptions(level: 3, strategy: $0, filter: .paeth) }
        + PNGEncodeOptions.Filter.allCases.map { PNGEncodeOptions(level: 0, strategy: .default, filter: $0) }
        + [PNGEncodeOptions(level: 9, strategy: .filtered, filter: .up), PNGEncodeOptions(level: 2, strategy: .rle, filter: .average)]

    @Test(arguments: settings)
    func roundTripsExactly(_ options: PNGEncodeOptions) throws {
        let image = RGBImage(width: 37, height: 19, pixels: TestImages.noise(count: 37 * 19 * 3))
        let png = try PNGEncoder.encode(image, options: options)
        #expect(Array(png.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        let decoded = try ImageDecoder.decode(png)
        #expect(decoded.image == image && !decoded.hadAlpha && decoded.warnings.isEmpty)
    }

    @Test func outputIsDeterministic() throws {
        let image = TestImages.gradient(width: 120, height: 80)
        let first = try PNGEncoder.encode(image)
        #expect(try PNGEncoder.encode(image) == first)
        // No tIME or text chunks: only IHDR, IDAT and IEND.
        var types: [String] = [], position = 8
        while position + 8 <= first.count {
            let length = Int(first[position]) << 24 | Int(first[position + 1]) << 16 | Int(first[position + 2]) << 8 | Int(first[position + 3])
            types.append(String(decoding: first[(position + 4)..<(position + 8)], as: UTF8.self))
            position += 12 + length
        }
        #expect(Set(types) == ["IHDR", "IDAT", "IEND"])
    }

    @Test func higherLevelsAreNotLarger() throws {
        let image = TestImages.gradient(width: 200, height: 100)
        let fast = try PNGEncoder.encode(image, options: PNGEncodeOptions(level: 1, strategy: .default, filter: .adaptive))
        let small = try PNGEncoder.encode(image, options: PNGEncodeOptions(level: 9, strategy: .default, filter: .adaptive))
        let stored = try PNGEncoder.encode(image, options: PNGEncodeOptions(level: 0, strategy: .default, filter: .none))
        #expect(small.count <= fast.count && fast.count < stored.count)
        #expect(stored.count > image.pixels.count)  // level 0 stores every byte
    }

    @Test func rejectsBadOptionsAndEmptyImages() {
        let image = TestImages.gradient(width: 4, height: 4)
        #expect(throws: PNGEncodeError.invalidOptions("level 10 is outside 0...9")) {
            try PNGEncoder.encode(image, options: PNGEncodeOptions(level: 10))
        }
        #expect(throws: PNGEncodeError.emptyImage(width: 0, height: 5)) {
            try PNGEncoder.encode(RGBImage(width: 0, height: 5, pixels: []))
        }
    }

    @Test func libpngErrorsBecomeTypedErrors() {
        // Bit depth 3 is not a PNG depth: libpng's png_error must come back as an error, not a longjmp into Swift.
        let raw = PNGRawImage(width: 2, height: 2, colorType: .grey, bitDepth: 3, rows: [0, 0, 0, 0])
        #expect {
            try PNGEncoder.encode(raw, options: PNGEncodeOptions())
        } throws: { error in
            guard case .libpng(let message) = error as? PNGEncodeError else { return false }
            return message.contains("libpng")
        }
    }
}
