import Foundation
import ImageCodecs
import ImageCore
import Testing
import _TestSupport

/// `FastPNGEncoder` output decoded by libpng (which, with zlib, checks every
/// chunk CRC, the deflate stream and its Adler-32).
@Suite struct FastPNGEncoderTests {
    struct ImageCase: CustomTestStringConvertible, Sendable {
        var name: String
        var make: @Sendable () -> RGBImage
        var testDescription: String { name }
    }

    static let images: [ImageCase] = [
        ImageCase(name: "1x1") { RGBImage(width: 1, height: 1, pixels: [200, 10, 77]) },
        ImageCase(name: "1x97 column") { RGBImage(width: 1, height: 97, pixels: TestImages.noise(count: 97 * 3, seed: 7)) },
        ImageCase(name: "89x1 row") { RGBImage(width: 89, height: 1, pixels: TestImages.noise(count: 89 * 3, seed: 8)) },
        ImageCase(name: "odd width gradient 37x29") { TestImages.gradient(width: 37, height: 29) },
        ImageCase(name: "noise 301x211") { RGBImage(width: 301, height: 211, pixels: TestImages.noise(count: 301 * 211 * 3)) },
        ImageCase(name: "constant 640x480") { RGBImage(width: 640, height: 480, fill: (12, 200, 90)) },
        ImageCase(name: "black 333x1") { RGBImage(width: 333, height: 1) },
        ImageCase(name: "grey noise 97x61") { FastPNGTestImages.grey(TestImages.noise(count: 97 * 61 * 3), width: 97, height: 61) },
        ImageCase(name: "grey drawing 211x77") { FastPNGTestImages.grey(FastPNGTestImages.drawing(width: 211, height: 77).pixels, width: 211, height: 77) },
        ImageCase(name: "runs and lines 517x389") { FastPNGTestImages.drawing(width: 517, height: 389) },
        ImageCase(name: "letterboxed noise 400x300") { FastPNGTestImages.letterboxed(width: 400, height: 300) },
        ImageCase(name: "fibonacci bytes 256x200") { FastPNGTestImages.fibonacciBytes(width: 256, height: 200) },
        ImageCase(name: "many blocks 1503x977") { FastPNGTestImages.drawing(width: 1503, height: 977, noisy: true) },
    ]

    static let settings: [FastPNGEncodeOptions] = FastPNGEncodeOptions.Filter.allCases.map { FastPNGEncodeOptions(filter: $0) }
        + [FastPNGEncodeOptions(filter: .up, runLengthMatches: false),
           FastPNGEncodeOptions(filter: .paeth, greyscaleWhenPossible: false),
           FastPNGEncodeOptions(filter: .paeth, runLengthMatches: true, blockSize: 4096)]

    @Test(arguments: images, settings)
    func roundTripsExactly(_ image: ImageCase, _ options: FastPNGEncodeOptions) throws {
        let pixels = image.make()
        let png = try FastPNGEncoder.encode(pixels, options: options)
        let decoded = try ImageDecoder.decode(png)
        #expect(decoded.image == pixels && decoded.warnings.isEmpty && !decoded.hadAlpha)
    }

    /// The vector scan (AVX2) and literal coder (AVX-512) write the same
    /// bytes as the 8-byte loops, with runs anywhere and blocks of any size.
    @Test(arguments: images, [FastPNGEncodeOptions(), FastPNGEncodeOptions(filter: .up, blockSize: 4096)])
    func vectorPathsWriteTheSameBytes(_ image: ImageCase, _ options: FastPNGEncodeOptions) throws {
        let pixels = image.make()
        var scalar = options
        scalar.usesVectors = false
        #expect(try FastPNGEncoder.encode(pixels, options: options) == FastPNGEncoder.encode(pixels, options: scalar))
    }

    @Test(arguments: 0..<24)
    func vectorPathsWriteTheSameBytesOnPatchworks(_ seed: Int) throws {
        let pixels = FastPNGTestImages.patchwork(seed: seed)
        var scalar = FastPNGEncodeOptions(blockSize: 4096)
        scalar.usesVectors = false
        #expect(try FastPNGEncoder.encode(pixels, options: FastPNGEncodeOptions(blockSize: 4096))
                == FastPNGEncoder.encode(pixels, options: scalar))
    }

    /// Random patchworks (runs start and end everywhere, including across
    /// block boundaries with 4 KiB blocks) decode to the same pixels.
    @Test(arguments: 0..<24)
    func roundTripsRandomPatchworks(_ seed: Int) throws {
        let image = FastPNGTestImages.patchwork(seed: seed)
        let filter = FastPNGEncodeOptions.Filter.allCases[seed % 5]
        for options in [FastPNGEncodeOptions(filter: filter, blockSize: 4096), FastPNGEncodeOptions(filter: filter)] {
            #expect(try ImageDecoder.decode(try FastPNGEncoder.encode(image, options: options)).image == image)
        }
    }

    @Test func flatImagesCompressAndNoiseDoesNotGrowMuch() throws {
        let flat = RGBImage(width: 640, height: 480, fill: (12, 200, 90))
        #expect(try FastPNGEncoder.encode(flat).count < flat.pixels.count / 100)
        let lines = FastPNGTestImages.drawing(width: 517, height: 389)
        #expect(try FastPNGEncoder.encode(lines).count < lines.pixels.count / 10)
        // Incompressible: stored blocks, so at most the filter bytes, 5 bytes per 64 KiB and the chunks.
        let noise = RGBImage(width: 301, height: 211, pixels: TestImages.noise(count: 301 * 211 * 3))
        let png = try FastPNGEncoder.encode(noise, options: FastPNGEncodeOptions(filter: .none))
        #expect(png.count <= noise.pixels.count + 211 + 5 * 2 + 100)
    }

    @Test func lowersHuffmanLengthsToFifteenBits() throws {
        // Fibonacci frequencies give an unrestricted Huffman code far deeper than 15 bits.
        var frequencies = [UInt32](repeating: 0, count: 286)
        var (a, b): (UInt32, UInt32) = (1, 1)
        for symbol in 0..<30 { frequencies[symbol] = a; (a, b) = (b, a + b) }
        let code = frequencies.withUnsafeBufferPointer { HuffmanCode(frequencies: $0, maxLength: 15) }
        #expect(code.lengths.max() == 15)
        #expect(code.lengths.prefix(30).allSatisfy { $0 > 0 } && code.lengths.dropFirst(30).allSatisfy { $0 == 0 })
        // A complete code: Kraft sum exactly 1.
        let kraft = code.lengths.reduce(0) { $0 + ($1 > 0 ? 1 << (15 - Int($1)) : 0) }
        #expect(kraft == 1 << 15)
        // More frequent symbols never get longer codes.
        for symbol in 1..<30 { #expect(code.lengths[symbol] <= code.lengths[symbol - 1]) }
    }

    @Test(arguments: [[0, 0, 0], [5], [0, 0, 9, 0], [1, 1], [3, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1]])
    func smallAlphabetsGiveCompleteCodes(_ counts: [UInt32]) throws {
        let frequencies = counts + [UInt32](repeating: 0, count: max(0, 19 - counts.count))
        let code = frequencies.withUnsafeBufferPointer { HuffmanCode(frequencies: $0, maxLength: 7) }
        #expect(code.lengths.filter { $0 > 0 }.count >= 2)
        #expect(code.lengths.reduce(0) { $0 + ($1 > 0 ? 1 << (7 - Int($1)) : 0) } == 1 << 7)
        for (symbol, count) in frequencies.enumerated() where count > 0 { #expect(code.lengths[symbol] > 0) }
    }

    @Test func checksumsMatchKnownAnswers() {
        #expect(CRC32.checksum(Array("123456789".utf8)) == 0xCBF4_3926)
        #expect(CRC32.checksum([]) == 0)
        #expect(Adler32.checksum(Array("Wikipedia".utf8)) == 0x11E6_0398)
        #expect(Adler32.checksum([]) == 1)
    }

    @Test(arguments: [0, 1, 15, 16, 17, 100, 4096 * 16 - 1, 4096 * 16, 4096 * 16 + 5, 300_001])
    func checksumsMatchBytewiseDefinitions(_ count: Int) {
        // All-255 bytes are the worst case for the vectorized sums' overflow bounds.
        for bytes in [TestImages.noise(count: count, seed: UInt64(count) + 3), [UInt8](repeating: 255, count: count)] {
            var a: UInt32 = 1, b: UInt32 = 0
            var crc: UInt32 = 0xFFFF_FFFF
            for byte in bytes {
                a = (a + UInt32(byte)) % 65521
                b = (b + a) % 65521
                crc ^= UInt32(byte)
                for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
            }
            #expect(Adler32.checksum(bytes) == b << 16 | a)
            #expect(CRC32.checksum(bytes) == ~crc)
        }
    }

    /// Fed in pieces of every length 0…200 at every start, the folded CRC
    /// (64 bytes and more at a time) matches the table-only one.
    @Test func crcFoldingMatchesTablesAcrossSplits() {
        let bytes = TestImages.noise(count: 4096 + 200, seed: 11)
        bytes.withUnsafeBytes { all in
            for length in 0...200 {
                var folded = CRC32(), tables = CRC32()
                var start = 0
                while start + length <= all.count && start < 1200 {
                    let piece = UnsafeRawBufferPointer(rebasing: all[start..<(start + length)])
                    folded.update(piece)
                    tables.updateWithTables(piece)
                    start += length + 1
                    if length == 0 { break }
                }
                #expect(folded.value == tables.value, "pieces of \(length)")
            }
            var whole = CRC32()
            whole.updateWithTables(all)
            #expect(CRC32.checksum(all) == whole.value)
        }
    }

    @Test func writesSignatureHeaderDataAndEndChunks() throws {
        let image = FastPNGTestImages.drawing(width: 123, height: 45)
        let png = try FastPNGEncoder.encode(image, options: FastPNGEncodeOptions(filter: .up))
        #expect(Array(png.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        let chunks = try FastPNGTestImages.chunks(png)
        #expect(chunks.map(\.type) == ["IHDR", "IDAT", "IEND"])
        #expect(chunks[0].data == [0, 0, 0, 123, 0, 0, 0, 45, 8, 2, 0, 0, 0])
        #expect(chunks[2].data.isEmpty)
        // zlib header: deflate, 32 KiB window, check bits valid.
        let idat = chunks[1].data
        #expect(idat[0] == 0x78 && (Int(idat[0]) << 8 | Int(idat[1])) % 31 == 0)
        // The stream ends with the Adler-32 of the filtered rows (filter byte 2 = Up, then differences).
        var filtered: [UInt8] = []
        for y in 0..<45 {
            filtered.append(2)
            for x in 0..<(123 * 3) {
                let above = y > 0 ? image.pixels[(y - 1) * 369 + x] : 0
                filtered.append(image.pixels[y * 369 + x] &- above)
            }
        }
        let adler = Adler32.checksum(filtered)
        #expect(Array(idat.suffix(4)) == [UInt8(adler >> 24), UInt8(adler >> 16 & 0xFF), UInt8(adler >> 8 & 0xFF), UInt8(adler & 0xFF)])
    }

    @Test(arguments: [1, 7, 1000])
    func splitsLongStreamsIntoSeveralDataChunks(_ maximum: Int) throws {
        let image = FastPNGTestImages.drawing(width: 300, height: 200, noisy: true)
        var options = FastPNGEncodeOptions()
        let single = try FastPNGEncoder.encode(image, options: options)
        options.maximumChunkLength = maximum
        let split = try FastPNGEncoder.encode(image, options: options)
        let chunks = try FastPNGTestImages.chunks(split)
        let data = chunks.filter { $0.type == "IDAT" }
        #expect(data.allSatisfy { $0.data.count <= maximum } && data.count > 1)
        #expect(data.flatMap(\.data) == (try FastPNGTestImages.chunks(single))[1].data)
        #expect(try ImageDecoder.decode(split).image == image)
    }

    @Test func writesGreyImagesAsOneChannelOnlyWhenAllowed() throws {
        let image = FastPNGTestImages.grey(FastPNGTestImages.drawing(width: 90, height: 40, noisy: true).pixels, width: 90, height: 40)
        let grey = try FastPNGEncoder.encode(image)
        let rgb = try FastPNGEncoder.encode(image, options: FastPNGEncodeOptions(greyscaleWhenPossible: false))
        #expect(try FastPNGTestImages.chunks(grey)[0].data[9] == 0)
        #expect(try FastPNGTestImages.chunks(rgb)[0].data[9] == 2)
        #expect(grey.count < rgb.count)
        #expect(try ImageDecoder.decode(grey).image == image && ImageDecoder.decode(rgb).image == image)
        // One changed sample anywhere (R, G or B; in the 8-pixel steps or the tail) makes it RGB.
        for index in [0, 1, 2, 3, 700, 1535, 1536, 1537, 5000, 10_751, 10_752, image.pixels.count - 1] {
            var almost = image
            almost.pixels[index] &+= 1
            #expect(try FastPNGTestImages.chunks(try FastPNGEncoder.encode(almost))[0].data[9] == 2, "sample \(index)")
        }
    }

    @Test func outputIsDeterministic() throws {
        let image = FastPNGTestImages.drawing(width: 700, height: 500, noisy: true)
        let first = try FastPNGEncoder.encode(image)
        #expect(try FastPNGEncoder.encode(image) == first)
        let copy = RGBImage(width: image.width, height: image.height, pixels: Array(image.pixels))
        #expect(try FastPNGEncoder.encode(copy) == first)
    }

    @Test func rejectsEmptyImagesAndBadOptions() {
        #expect(throws: PNGEncodeError.emptyImage(width: 0, height: 5)) {
            try FastPNGEncoder.encode(RGBImage(width: 0, height: 5, pixels: []))
        }
        #expect(throws: PNGEncodeError.emptyImage(width: 3, height: 0)) {
            try FastPNGEncoder.encode(RGBImage(width: 3, height: 0, pixels: []))
        }
        #expect(throws: PNGEncodeError.invalidOptions("block size 100 is outside 4096...16777216")) {
            try FastPNGEncoder.encode(RGBImage(width: 3, height: 3), options: FastPNGEncodeOptions(blockSize: 100))
        }
    }
}

/// The photos `make sources` extracts, through the fast encoder (skipped when absent).
@Suite(.enabled(if: FileManager.default.fileExists(atPath: Fixtures.photo("astronaut.png").path), "run `make sources` first"))
struct FastPNGEncoderPhotoTests {
    static let files = ["astronaut.png", "camera.png", "chelsea.png", "coffee.png", "takeo.png", "lenna.png",
                        "breakingbad.jpg", "einstein.jpg", "t1.jpg", "tongue.jpg", "rocket.jpg"]

    @Test(arguments: files)
    func roundTripsAndStaysNearLibpngSize(_ file: String) throws {
        let image = try ImageDecoder.decode(try Fixtures.bytes(Fixtures.photo(file))).image
        let fast = try FastPNGEncoder.encode(image)
        #expect(try ImageDecoder.decode(fast).image == image)
        let paeth = try FastPNGEncoder.encode(image, options: FastPNGEncodeOptions(filter: .paeth))
        #expect(try ImageDecoder.decode(paeth).image == image)
        // Loose bound (sizes are measured by benchmarks/codecs.sh; measured 0.46–1.03×):
        // within 1.25× libpng's level 1.
        let libpng = try PNGEncoder.encode(image)
        #expect(Double(fast.count) < 1.25 * Double(libpng.count))
    }
}

/// Synthetic images for the fast encoder's tests.
enum FastPNGTestImages {
    /// A flat background with filled rectangles, lines and (optionally) a noisy gradient band.
    /// Random shapes with random patches of noise, flat colour, repeated
    /// pixels and repeated bytes.
    static func patchwork(seed: Int) -> RGBImage {
        var random = SplitMix64(seed: UInt64(seed))
        let width = 1 + Int(random.next() % 300), height = 1 + Int(random.next() % 120)
        var pixels = TestImages.noise(count: width * height * 3, seed: UInt64(seed) &+ 11)
        var index = 0
        while index < pixels.count {
            let length = min(pixels.count - index, 1 + Int(random.next() % 700))
            switch random.next() % 4 {
            case 0: break  // noise
            case 1: for i in index..<(index + length) { pixels[i] = UInt8(seed) }
            case 2: for i in index..<(index + length) where i >= 3 { pixels[i] = pixels[i - 3] }
            default: for i in index..<(index + length) { pixels[i] = UInt8(truncatingIfNeeded: i / 9) }
            }
            index += length
        }
        return RGBImage(width: width, height: height, pixels: pixels)
    }

    static func drawing(width: Int, height: Int, noisy: Bool = false) -> RGBImage {
        var image = RGBImage(width: width, height: height, fill: (30, 30, 30))
        let noise = TestImages.noise(count: width * height, seed: 99)
        image.pixels.withUnsafeMutableBufferPointer { pixels in
            func set(_ x: Int, _ y: Int, _ colour: (UInt8, UInt8, UInt8)) {
                guard x >= 0, y >= 0, x < width, y < height else { return }
                let index = (y * width + x) * 3
                pixels[index] = colour.0; pixels[index + 1] = colour.1; pixels[index + 2] = colour.2
            }
            for y in (height / 4)..<(height / 2) { for x in (width / 5)..<(width / 2) { set(x, y, (250, 20, 20)) } }
            for step in 0..<max(width, height) {
                set(step * width / max(width, height), step * height / max(width, height), (0, 255, 0))
                set(width - 1 - step * width / max(width, height), step * height / max(width, height), (255, 255, 0))
                set(step % width, height / 3, (0, 0, 255))
            }
            if noisy {
                for y in (height * 2 / 3)..<height {
                    for x in 0..<width {
                        let n = Int(noise[y * width + x]) / 16
                        set(x, y, (UInt8(min(255, x * 255 / width + n)), UInt8((y * 3 + n) & 0xFF), UInt8(n * 8)))
                    }
                }
            }
        }
        return image
    }

    /// R copied to G and B.
    static func grey(_ pixels: [UInt8], width: Int, height: Int) -> RGBImage {
        var grey = pixels
        for index in stride(from: 0, to: grey.count, by: 3) { grey[index + 1] = grey[index]; grey[index + 2] = grey[index] }
        return RGBImage(width: width, height: height, pixels: grey)
    }

    /// Noise in the middle third, black bars above and below (a letterboxed frame).
    static func letterboxed(width: Int, height: Int) -> RGBImage {
        var pixels = [UInt8](repeating: 0, count: width * height * 3)
        let noise = TestImages.noise(count: width * height * 3, seed: 5)
        for index in (width * (height / 3) * 3)..<(width * (2 * height / 3) * 3) { pixels[index] = noise[index] }
        return RGBImage(width: width, height: height, pixels: pixels)
    }

    /// Bytes drawn with Fibonacci-weighted probabilities (byte k about φ^k
    /// times as likely as byte 0, for 24 values): an optimal code for them
    /// needs more than 15 bits, so the limiter must act (with the None filter
    /// the bytes reach the compressor unchanged).
    static func fibonacciBytes(width: Int, height: Int) -> RGBImage {
        var weights: [Int] = [1, 1]
        while weights.count < 24 { weights.append(weights[weights.count - 1] + weights[weights.count - 2]) }
        let total = weights.reduce(0, +)
        var state: UInt64 = 0x1234_5678_9ABC_DEF1
        let pixels = (0..<(width * height * 3)).map { _ -> UInt8 in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            var pick = Int((state >> 33) % UInt64(total))
            for (byte, weight) in weights.enumerated() {
                if pick < weight { return UInt8(byte * 10) }
                pick -= weight
            }
            return 0
        }
        return RGBImage(width: width, height: height, pixels: pixels)
    }

    struct Chunk { var type: String; var data: [UInt8] }

    /// The chunk list of a PNG, each CRC checked with `CRC32`.
    static func chunks(_ png: [UInt8]) throws -> [Chunk] {
        var chunks: [Chunk] = []
        var position = 8
        while position < png.count {
            try #require(position + 12 <= png.count)
            let length = Int(png[position]) << 24 | Int(png[position + 1]) << 16 | Int(png[position + 2]) << 8 | Int(png[position + 3])
            try #require(position + 12 + length <= png.count)
            let typeAndData = Array(png[(position + 4)..<(position + 8 + length)])
            let stored = png[(position + 8 + length)..<(position + 12 + length)].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
            #expect(CRC32.checksum(typeAndData) == stored)
            chunks.append(Chunk(type: String(decoding: typeAndData.prefix(4), as: UTF8.self), data: Array(typeAndData.dropFirst(4))))
            position += 12 + length
        }
        #expect(position == png.count)
        return chunks
    }
}
