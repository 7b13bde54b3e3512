import ImageCodecs
import ImageCore
import Testing

/// Inputs found in real archives that must give a typed error, never a crash.
@Suite struct BadInputTests {
    enum Expected: Sendable {
        case empty, unknownFormat, truncated, corrupt, tooLarge, unsupported
    }

    struct BadCase: CustomTestStringConvertible, Sendable {
        var name: String
        var bytes: @Sendable () throws -> [UInt8]
        var expected: Expected
        var testDescription: String { name }
    }

    static func jpeg() throws -> [UInt8] { try TestImages.jpeg(TestImages.gradient(width: 64, height: 64), quality: 90) }
    static func png() throws -> [UInt8] { try PNGEncoder.encode(TestImages.gradient(width: 64, height: 64)) }

    /// A PNG signature and an IHDR declaring `width × height` (valid CRC), nothing else.
    static func pngHeader(width: UInt32, height: UInt32) -> [UInt8] {
        let ihdr: [UInt8] = Array("IHDR".utf8) + [width, height].flatMap { v in [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: v >> $0) } } + [8, 2, 0, 0, 0]
        let crc = ihdr.crc32
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13] + ihdr + [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: crc >> $0) }
    }

    /// Index of the SOF0 marker's 0xFF byte.
    static func sofIndex(_ jpeg: [UInt8]) -> Int? {
        jpeg.indices.dropLast().first { jpeg[$0] == 0xFF && jpeg[$0 + 1] == 0xC0 }
    }

    static let cases: [BadCase] = [
        BadCase(name: "zero bytes", bytes: { [] }, expected: .empty),
        BadCase(name: "text named .jpg", bytes: { Array("Hello, this is not a photo.\n".utf8) }, expected: .unknownFormat),
        BadCase(name: "one byte", bytes: { [0xFF] }, expected: .unknownFormat),
        BadCase(name: "JPEG signature only", bytes: { [0xFF, 0xD8, 0xFF] }, expected: .truncated),
        BadCase(name: "JPEG cut in half", bytes: { let j = try jpeg(); return Array(j.prefix(j.count / 2)) }, expected: .truncated),
        BadCase(name: "JPEG cut inside the header", bytes: { Array(try jpeg().prefix(100)) }, expected: .truncated),
        BadCase(name: "JPEG without its last bytes", bytes: { Array(try jpeg().dropLast(40)) }, expected: .truncated),
        BadCase(name: "JPEG with a corrupt header", bytes: {
            var j = try jpeg()
            // Overwrite the first DQT/SOF segments' bodies after SOI+APP0 with junk markers.
            for i in 20..<min(j.count, 200) { j[i] = 0xFF }
            return j
        }, expected: .corrupt),
        BadCase(name: "JPEG with scrambled entropy data", bytes: {
            var j = try jpeg()
            let noise = TestImages.noise(count: 400, seed: 7)
            for i in 0..<400 { j[j.count / 2 - 200 + i] = noise[i] == 0xFF ? 0 : noise[i] }
            return j
        }, expected: .corrupt),
        BadCase(name: "12-bit JPEG", bytes: {
            var j = try jpeg()
            let sof = try #require(sofIndex(j))
            j[sof + 4] = 12  // sample precision
            return j
        }, expected: .unsupported),
        BadCase(name: "lossless JPEG (SOF3)", bytes: {
            var j = try jpeg()
            j[try #require(sofIndex(j)) + 1] = 0xC3
            return j
        }, expected: .unsupported),
        BadCase(name: "PNG signature only", bytes: { Array(try png().prefix(8)) }, expected: .truncated),
        BadCase(name: "PNG cut in half", bytes: { let p = try png(); return Array(p.prefix(p.count / 2)) }, expected: .truncated),
        BadCase(name: "PNG without IEND", bytes: { Array(try png().dropLast(12)) }, expected: .truncated),
        BadCase(name: "PNG with a corrupt IDAT", bytes: {
            var p = try png()
            for i in 60..<90 { p[i] ^= 0x5A }
            return p
        }, expected: .corrupt),
        BadCase(name: "PNG header claiming 50000x50000", bytes: { pngHeader(width: 50_000, height: 50_000) }, expected: .tooLarge),
    ]

    @Test(arguments: cases)
    func failsWithATypedError(_ testCase: BadCase) throws {
        let bytes = try testCase.bytes()
        #expect {
            try ImageDecoder.decode(bytes)
        } throws: { error in
            guard let error = error as? ImageDecodeError else { return false }
            print("\(testCase.name): \(error)")
            switch (error, testCase.expected) {
            case (.empty, .empty), (.unknownFormat, .unknownFormat), (.truncated, .truncated), (.corrupt, .corrupt), (.tooLarge, .tooLarge), (.unsupported, .unsupported):
                return !error.description.isEmpty
            default:
                return false
            }
        }
    }

    @Test func unknownFormatShowsTheFirstBytes() {
        let error = ImageDecodeError.unknownFormat(prefix: Array("GIF89a".utf8))
        #expect(error.description.contains("47 49 46 38 39 61") && error.description.contains("GIF89a"))
    }

    @Test func limitIsCheckedFromTheHeader() throws {
        let tooLarge = ImageDecodeError.tooLarge(width: 64, height: 64, limit: 4000)
        #expect(throws: tooLarge) { try ImageDecoder.decode(try Self.jpeg(), options: DecodeOptions(maxPixels: 4000)) }
        #expect(throws: tooLarge) { try ImageDecoder.decode(try Self.png(), options: DecodeOptions(maxPixels: 4000)) }
        #expect(try ImageDecoder.decode(try Self.png(), options: DecodeOptions(maxPixels: 4096)).image.width == 64)
        #expect(throws: ImageDecodeError.tooLarge(width: 50_000, height: 50_000, limit: 100_000_000)) {
            try ImageDecoder.decode(Self.pngHeader(width: 50_000, height: 50_000))
        }
        // 32-bit IHDR fields whose product overflows Int64 must not trap.
        #expect(throws: ImageDecodeError.tooLarge(width: 0xFFFF_FFFF, height: 0xFFFF_FFFF, limit: 100_000_000)) {
            try ImageDecoder.decode(Self.pngHeader(width: 0xFFFF_FFFF, height: 0xFFFF_FFFF))
        }
    }

    @Test func randomDamageNeverCrashes() throws {
        let originals = [try Self.jpeg(), try Self.png(), try TestImages.jpeg(TestImages.gradient(width: 40, height: 30), progressive: true)]
        let decoder = ImageDecoder()
        for (index, original) in originals.enumerated() {
            for seed in 1...60 {
                var bytes = original
                let noise = TestImages.noise(count: 16, seed: UInt64(seed * 97 + index))
                for k in 0..<4 {
                    let position = 2 + (Int(noise[3 * k]) << 8 | Int(noise[3 * k + 1])) % (bytes.count - 2)
                    bytes[position] = noise[3 * k + 2]
                }
                if seed % 3 == 0 { bytes = Array(bytes.prefix(bytes.count * Int(noise[15]) / 256)) }
                _ = try? decoder.decode(bytes)
            }
        }
    }
}

extension Array where Element == UInt8 {
    /// CRC-32 (ISO-HDLC, as PNG uses), for hand-made chunks.
    var crc32: UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in self {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = (crc >> 1) ^ (0xEDB8_8320 & (0 &- (crc & 1))) }
        }
        return ~crc
    }
}
