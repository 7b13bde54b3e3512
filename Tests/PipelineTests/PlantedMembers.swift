import ArchiveIO
import Foundation
import ImageCore
import _TestSupport

/// Members a stranger plants in a dataset tar: pictures in formats facepipe
/// does not decode (written by hand from their specifications, small but
/// valid), and compressed or archived copies of a JPEG.
enum PlantedMembers {
    static func ascii(_ text: String) -> [UInt8] { Array(text.utf8) }
    static func be32(_ value: Int) -> [UInt8] { (0..<4).reversed().map { UInt8((value >> (8 * $0)) & 0xFF) } }
    static func le32(_ value: Int) -> [UInt8] { (0..<4).map { UInt8((value >> (8 * $0)) & 0xFF) } }
    static func le16(_ value: Int) -> [UInt8] { [UInt8(value & 0xFF), UInt8((value >> 8) & 0xFF)] }

    /// Binary PPM (P6) of `image`.
    static func ppm(_ image: RGBImage) -> [UInt8] {
        ascii("P6\n\(image.width) \(image.height)\n255\n") + image.pixels
    }

    /// PAM (P7) of `image`, RGB.
    static func pam(_ image: RGBImage) -> [UInt8] {
        ascii("P7\nWIDTH \(image.width)\nHEIGHT \(image.height)\nDEPTH 3\nMAXVAL 255\nTUPLTYPE RGB\nENDHDR\n") + image.pixels
    }

    /// QOI of `image`: every pixel as a QOI_OP_RGB, then the end marker.
    static func qoi(_ image: RGBImage) -> [UInt8] {
        var bytes = ascii("qoif") + be32(image.width) + be32(image.height) + [3, 0]
        for p in stride(from: 0, to: image.pixels.count, by: 3) {
            bytes += [0xFE, image.pixels[p], image.pixels[p + 1], image.pixels[p + 2]]
        }
        return bytes + [0, 0, 0, 0, 0, 0, 0, 1]
    }

    /// An uncompressed 24-bit TGA (type 2, no ID, no colour map, bottom-up).
    static func tga(_ image: RGBImage) -> [UInt8] {
        var bytes: [UInt8] = [0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0] + le16(image.width) + le16(image.height) + [24, 0]
        for y in (0..<image.height).reversed() {
            for x in 0..<image.width {
                let p = (y * image.width + x) * 3
                bytes += [image.pixels[p + 2], image.pixels[p + 1], image.pixels[p]]
            }
        }
        return bytes
    }

    /// A 24-bit BMP whose reserved header bytes are not zero (readers ignore them).
    static func bmp(_ image: RGBImage) -> [UInt8] {
        let row = (image.width * 3 + 3) / 4 * 4
        var bytes = ascii("BM") + le32(54 + row * image.height) + [0x12, 0x34, 0x56, 0x78] + le32(54)
        bytes += le32(40) + le32(image.width) + le32(image.height) + le16(1) + le16(24) + le32(0) + le32(row * image.height)
        bytes += le32(2835) + le32(2835) + le32(0) + le32(0)
        for y in (0..<image.height).reversed() {
            for x in 0..<image.width {
                let p = (y * image.width + x) * 3
                bytes += [image.pixels[p + 2], image.pixels[p + 1], image.pixels[p]]
            }
            bytes += [UInt8](repeating: 0, count: row - image.width * 3)
        }
        return bytes
    }

    /// SVG showing `jpeg` as an embedded image, with `prefix` before the markup.
    static func svg(embedding jpeg: [UInt8], prefix: String = "") -> [UInt8] {
        let base64 = Data(jpeg).base64EncodedString()
        return ascii(prefix + #"<svg xmlns="http://www.w3.org/2000/svg" width="160" height="120">"#
            + #"<image width="160" height="120" href="data:image/jpeg;base64,"# + base64 + #""/></svg>"#)
    }

    /// `data` in a gzip member (one stored deflate block per 64 KiB).
    static func gzip(_ data: [UInt8]) -> [UInt8] {
        var bytes: [UInt8] = [0x1F, 0x8B, 8, 0, 0, 0, 0, 0, 0, 0xFF]
        var start = 0
        repeat {
            let end = min(start + 65535, data.count)
            let count = end - start
            bytes += [end == data.count ? 1 : 0] + le16(count) + le16(~count & 0xFFFF) + data[start..<end]
            start = end
        } while start < data.count
        return bytes + le32(Int(ZipBuilder.crc32(data))) + le32(data.count)
    }

    /// A tar holding `data` as `name`.
    static func tar(_ name: String, _ data: [UInt8]) throws -> [UInt8] {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("planted-\(UUID().uuidString).tar").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let writer = try TarWriter(path: path)
        try writer.add(path: name, data: data)
        try writer.finish()
        return [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    /// A zip holding `data` as `name`.
    static func zip(_ name: String, _ data: [UInt8]) -> [UInt8] {
        var builder = ZipBuilder()
        builder.add(name: name, data: data)
        return builder.bytes
    }
}
