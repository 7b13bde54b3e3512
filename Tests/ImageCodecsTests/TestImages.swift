import ImageCodecs
import ImageCore

/// Synthetic inputs built at test time, so few binary fixtures are committed.
enum TestImages {
    /// A smooth colour pattern (JPEG-friendly) with distinct R, G and B.
    static func gradient(width: Int, height: Int) -> RGBImage {
        var pixels = [UInt8](repeating: 0, count: width * height * 3)
        for y in 0..<height {
            for x in 0..<width {
                let i = (y * width + x) * 3
                pixels[i] = UInt8(40 + 170 * x / max(1, width - 1))
                pixels[i + 1] = UInt8(30 + 190 * y / max(1, height - 1))
                pixels[i + 2] = UInt8(200 - 150 * (x + y) / max(1, width + height - 2))
            }
        }
        return RGBImage(width: width, height: height, pixels: pixels)
    }

    /// Deterministic pseudo-random bytes (xorshift), for lossless round trips.
    static func noise(count: Int, seed: UInt64 = 0x9E37_79B9_7F4A_7C15) -> [UInt8] {
        var state = seed
        return (0..<count).map { _ in
            state ^= state << 13; state ^= state >> 7; state ^= state << 17
            return UInt8(truncatingIfNeeded: state >> 24)
        }
    }

    static func jpeg(_ image: RGBImage, quality: Int = 95, progressive: Bool = false) throws -> [UInt8] {
        try TurboJPEGCompressor().compress(image.pixels, width: image.width, height: image.height, input: .rgb,
                                           quality: quality, subsampling444: true, progressive: progressive)
    }

    /// A TIFF-structured EXIF block: IFD0 with ImageWidth, Orientation and
    /// Software entries (values inline) and a next-IFD offset of 0.
    static func exifTIFF(orientation: UInt16, bigEndian: Bool, orientationType: UInt16 = 3) -> [UInt8] {
        var bytes: [UInt8] = bigEndian ? [0x4D, 0x4D] : [0x49, 0x49]
        func put16(_ value: UInt16) { bytes += bigEndian ? [UInt8(value >> 8), UInt8(value & 0xFF)] : [UInt8(value & 0xFF), UInt8(value >> 8)] }
        func put32(_ value: UInt32) {
            if bigEndian { put16(UInt16(value >> 16)); put16(UInt16(value & 0xFFFF)) } else { put16(UInt16(value & 0xFFFF)); put16(UInt16(value >> 16)) }
        }
        put16(42); put32(8)
        put16(3)
        put16(0x0100); put16(4); put32(1); put32(640)  // ImageWidth LONG
        put16(0x0112); put16(orientationType); put32(1)  // Orientation
        if orientationType == 4 { put32(UInt32(orientation)) } else { put16(orientation); put16(0) }
        put16(0x0131); put16(2); put32(4); bytes += Array("fp\0\0".utf8)  // Software ASCII, inline
        put32(0)
        return bytes
    }

    /// `jpeg` with an `APP1 Exif\0\0` segment holding `tiff` right after SOI.
    static func insertingExif(_ tiff: [UInt8], into jpeg: [UInt8]) -> [UInt8] {
        let payload = Array("Exif".utf8) + [0, 0] + tiff
        let length = payload.count + 2
        return [0xFF, 0xD8, 0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + payload + jpeg.dropFirst(2)
    }

    static func maxAbsoluteDifference(_ a: [UInt8], _ b: [UInt8]) -> Int {
        zip(a, b).reduce(0) { max($0, abs(Int($1.0) - Int($1.1))) }
    }

    static func meanAbsoluteDifference(_ a: [UInt8], _ b: [UInt8]) -> Double {
        Double(zip(a, b).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) }) / Double(max(1, a.count))
    }
}
