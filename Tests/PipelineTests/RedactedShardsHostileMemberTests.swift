import ArchiveIO
import FaceAnalysis
import Foundation
import ImageCodecs
import ImageCore
import Pipeline
import PipelineRunning
import Pipelines
import RunFolders
import Testing
import _TestSupport

/// Members in disguise: pictures in formats facepipe does not decode, under
/// names that do not say so, and compressed or archived pictures. None is
/// ever copied into a redacted shard; by default nothing but redacted images
/// goes into one.
struct ShardMemberDisguiseTests {
    struct Planted: CustomTestStringConvertible, Sendable {
        let label: String
        let bytes: [UInt8]
        var testDescription: String { label }
    }

    static let picture = RedactedShardsTests.picture(shade: 60)

    static func planted() throws -> [Planted] {
        typealias P = PlantedMembers
        let jpeg = try RedactedShardsTests.jpeg(picture)
        let tiny = RGBImage(width: 2, height: 2, fill: (200, 40, 40))
        let svgPrefix = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!-- drawn -->\n<!DOCTYPE svg>\n"
        var utf16: [UInt8] = [0xFF, 0xFE]
        for unit in String(decoding: P.svg(embedding: jpeg), as: UTF8.self).utf16 { utf16 += [UInt8(unit & 0xFF), UInt8(unit >> 8)] }
        return [
            Planted(label: "PPM", bytes: P.ppm(picture)),
            Planted(label: "PGM", bytes: P.ascii("P5\n2 2\n255\n") + [0, 80, 160, 255]),
            Planted(label: "PBM (plain)", bytes: P.ascii("P1\n2 2\n0 1\n1 0\n")),
            Planted(label: "PAM", bytes: P.pam(picture)),
            Planted(label: "PFM", bytes: P.ascii("PF\n2 2\n-1.0\n") + [UInt8](repeating: 0, count: 48)),
            Planted(label: "QOI", bytes: P.qoi(picture)),
            Planted(label: "SVG", bytes: P.svg(embedding: jpeg)),
            Planted(label: "SVG after a BOM", bytes: [0xEF, 0xBB, 0xBF] + P.svg(embedding: jpeg)),
            Planted(label: "SVG after a prolog, comment and whitespace", bytes: P.svg(embedding: jpeg, prefix: "  \n" + svgPrefix)),
            Planted(label: "SVG in UTF-16", bytes: utf16),
            Planted(label: "SVG in capitals", bytes: P.ascii("<SVG WIDTH=\"1\" HEIGHT=\"1\"></SVG>")),
            Planted(label: "HTML with a data:image URI", bytes: P.ascii("<html><img src=\"DATA:IMAGE/jpeg;base64,\(Data(jpeg).base64EncodedString())\"></html>")),
            Planted(label: "JSON with a base64 JPEG", bytes: P.ascii("{\"thumb\": \"\(Data(jpeg).base64EncodedString())\"}")),
            Planted(label: "JSON with a base64 PNG", bytes: P.ascii("{\"thumb\": \"\(Data(try PNGEncoder.encode(tiny)).base64EncodedString())\"}")),
            Planted(label: "ICO", bytes: [0, 0, 1, 0, 1, 0, 2, 2, 0, 0, 1, 0, 24, 0] + P.le32(40) + P.le32(22)),
            Planted(label: "CUR", bytes: [0, 0, 2, 0, 1, 0, 2, 2, 0, 0, 1, 0, 1, 0] + P.le32(40) + P.le32(22)),
            Planted(label: "DDS", bytes: P.ascii("DDS ") + P.le32(124) + [UInt8](repeating: 0, count: 120)),
            Planted(label: "OpenEXR", bytes: [0x76, 0x2F, 0x31, 0x01, 2, 0, 0, 0]),
            Planted(label: "BMP (reserved bytes set)", bytes: P.bmp(picture)),
            Planted(label: "GIF", bytes: P.ascii("GIF87a") + P.le16(2) + P.le16(2) + [0, 0, 0, 0x3B]),
            Planted(label: "WebP", bytes: P.ascii("RIFF") + P.le32(20) + P.ascii("WEBPVP8L") + [UInt8](repeating: 0, count: 12)),
            Planted(label: "TIFF (little-endian)", bytes: [0x49, 0x49, 0x2A, 0, 8, 0, 0, 0, 0, 0]),
            Planted(label: "TIFF (big-endian)", bytes: [0x4D, 0x4D, 0, 0x2A, 0, 0, 0, 8, 0, 0]),
            Planted(label: "BigTIFF", bytes: [0x49, 0x49, 0x2B, 0, 8, 0, 0, 0, 16, 0, 0, 0, 0, 0, 0, 0]),
            Planted(label: "JPEG 2000", bytes: [0, 0, 0, 0x0C, 0x6A, 0x50, 0x20, 0x20, 0x0D, 0x0A, 0x87, 0x0A, 0, 0, 0, 0x14]),
            Planted(label: "JPEG 2000 codestream", bytes: [0xFF, 0x4F, 0xFF, 0x51, 0, 0x2F]),
            Planted(label: "JPEG XL codestream", bytes: [0xFF, 0x0A, 0xFA, 0x1F]),
            Planted(label: "JPEG XL container", bytes: [0, 0, 0, 0x0C, 0x4A, 0x58, 0x4C, 0x20, 0x0D, 0x0A, 0x87, 0x0A]),
            Planted(label: "HEIC", bytes: P.be32(24) + P.ascii("ftypheic") + P.be32(0) + P.ascii("mif1heic")),
            Planted(label: "AVIF", bytes: P.be32(28) + P.ascii("ftypavif") + P.be32(0) + P.ascii("avifmif1miaf")),
            Planted(label: "HEIF with an unlisted brand", bytes: P.be32(20) + P.ascii("ftypxxxx") + P.be32(0) + P.ascii("mif1")),
            Planted(label: "PSD", bytes: P.ascii("8BPS") + [0, 1] + [UInt8](repeating: 0, count: 20)),
            Planted(label: "TGA (no signature)", bytes: P.tga(RGBImage(width: 4, height: 3, fill: (10, 20, 30)))),
            Planted(label: "TGA (version 2 footer)", bytes: [UInt8](repeating: 0x41, count: 40) + [0, 0, 0, 0, 0, 0, 0, 0]
                + P.ascii("TRUEVISION-XFILE.") + [0]),
            Planted(label: "farbfeld", bytes: P.ascii("farbfeld") + P.be32(1) + P.be32(1) + [UInt8](repeating: 0xFF, count: 8)),
            Planted(label: "XBM", bytes: P.ascii("#define face_width 8\n#define face_height 1\nstatic char face_bits[] = { 0x18 };\n")),
            Planted(label: "XPM", bytes: P.ascii("/* XPM */\nstatic char *face[] = {\"1 1 1 1\", \"a c #FF0000\", \"a\"};\n")),
            Planted(label: "PCX", bytes: [0x0A, 5, 1, 8] + [UInt8](repeating: 0, count: 124)),
            Planted(label: "SGI", bytes: [0x01, 0xDA, 0, 1, 0, 2] + [UInt8](repeating: 0, count: 506)),
            Planted(label: "Sun raster", bytes: [0x59, 0xA6, 0x6A, 0x95] + P.be32(2) + P.be32(2) + P.be32(24)),
            Planted(label: "DIB", bytes: P.le32(40) + P.le32(2) + P.le32(2) + P.le16(1) + P.le16(24) + [UInt8](repeating: 0, count: 40)),
            Planted(label: "IM", bytes: P.ascii("Image type: RGB image\r\nImage size (x*y): 2*2\r\n") + [0x1A] + [UInt8](repeating: 0, count: 12)),
            Planted(label: "MSP", bytes: P.ascii("DanM") + P.le16(2) + P.le16(2) + [UInt8](repeating: 0, count: 24)),
            Planted(label: "SPIDER", bytes: Self.spiderHeader(rows: 2, columns: 2)),
            Planted(label: "OLE compound file", bytes: [0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1] + [UInt8](repeating: 0, count: 8)),
            Planted(label: "PDF", bytes: P.ascii("%PDF-1.7\n")),
            Planted(label: "DICOM", bytes: [UInt8](repeating: 0, count: 128) + P.ascii("DICM")),
        ]
    }

    /// A SPIDER header as Pillow writes it: little-endian floats, one
    /// slice, `iform` 1, label records of `columns` × 4 bytes filling 1 KiB.
    static func spiderHeader(rows: Int, columns: Int) -> [UInt8] {
        let lenbyt = columns * 4, labrec = (1024 + lenbyt - 1) / lenbyt
        var t = [Float](repeating: 0, count: 27)
        t[0] = 1; t[1] = Float(rows); t[2] = Float(rows); t[4] = 1; t[11] = Float(columns)
        t[12] = Float(labrec); t[21] = Float(labrec * lenbyt); t[22] = Float(lenbyt)
        return t.flatMap { PlantedMembers.le32(Int($0.bitPattern)) } + [UInt8](repeating: 0, count: rows * lenbyt)
    }

    @Test(arguments: try planted())
    func aPictureFacepipeCannotDecodeIsNeverCopied(_ member: Planted) {
        #expect(ImageLikeFormat(sniffing: member.bytes) != nil, "\(member.label) recognised by its bytes")
        for copyUnknown in [false, true] {
            #expect(RedactedTarMember(name: "sample.bin", data: member.bytes, copyUnknown: copyUnknown) == .image,
                    "\(member.label) goes to the decoder (and is left out when it fails), copyUnknown \(copyUnknown)")
        }
    }

    static func packed() throws -> [(label: String, bytes: [UInt8], kind: String)] {
        let jpeg = try RedactedShardsTests.jpeg(picture)
        return [
            ("gzipped JPEG", PlantedMembers.gzip(jpeg), "gzip data"),
            ("tar holding a JPEG", try PlantedMembers.tar("face.jpg", jpeg), "a tar archive"),
            ("zip holding a JPEG", PlantedMembers.zip("face.jpg", jpeg), "a zip archive"),
            ("bzip2", PlantedMembers.ascii("BZh91AY&SY") + [0, 0], "bzip2 data"),
            ("xz", [0xFD, 0x37, 0x7A, 0x58, 0x5A, 0x00, 0, 4], "xz data"),
            ("zstd", [0x28, 0xB5, 0x2F, 0xFD, 0x20, 0], "zstd data"),
            ("7z", [0x37, 0x7A, 0xBC, 0xAF, 0x27, 0x1C, 0, 4], "a 7z archive"),
            ("RAR", PlantedMembers.ascii("Rar!") + [0x1A, 0x07, 0x01, 0x00], "a RAR archive"),
        ]
    }

    @Test func compressedOrArchivedMembersAreLeftOutUnlessCopyUnknown() throws {
        for (label, bytes, kind) in try Self.packed() {
            let member = RedactedTarMember(name: "sample.bin", data: bytes, copyUnknown: false)
            #expect(member == .leftOut(reason: "left out of the redacted shard: \(kind), which facepipe does not look inside (--copy-unknown copies it)"),
                    "\(label): \(member)")
            #expect(RedactedTarMember(name: "sample.bin", data: bytes, copyUnknown: true) == .copied, "\(label)")
        }
    }

    @Test func textWithoutPicturesIsCopied() {
        let texts = [
            #"{"caption": "a face", "url": "https://example.org/0.jpg", "width": 640}"#,
            "key,label\nk0,3\nk1,7\n",
            "a person smiling at the camera\n",
            "<html><body><p>a caption</p><img src=\"0.jpg\"></body></html>",
        ]
        for text in texts {
            #expect(ImageLikeFormat(sniffing: Array(text.utf8)) == nil, "\(text)")
            #expect(RedactedTarMember(name: "k0.txt", data: Array(text.utf8), copyUnknown: true) == .copied)
            #expect(RedactedTarMember(name: "k0.txt", data: Array(text.utf8), copyUnknown: false) == .copied)
        }
    }
}

/// The planted members through a real `anonymize` run with `--redacted-shards`.
@Suite(.enabled(if: Fixtures.modelsAvailable, "run `make models` first"))
struct RedactedShardsHostileMemberTests {
    static func members() throws -> [(name: String, data: [UInt8])] {
        let picture = RedactedShardsTests.picture(shade: 60)
        let jpeg = try RedactedShardsTests.jpeg(picture)
        return [
            ("s0.jpg", jpeg),
            ("s0.bin", PlantedMembers.ppm(picture)),
            ("s0.txt", Array("a striped face\n".utf8)),
            ("s1.dat", PlantedMembers.qoi(picture)),
            ("s2.dat", PlantedMembers.pam(picture)),
            ("s3.xml", PlantedMembers.svg(embedding: jpeg, prefix: "<?xml version=\"1.0\"?>\n")),
            ("s4.gz", PlantedMembers.gzip(jpeg)),
            ("s5.tar", try PlantedMembers.tar("inner.jpg", jpeg)),
        ]
    }

    static let pictures = ["s0.bin", "s1.dat", "s2.dat", "s3.xml"]

    func run(copyUnknown: Bool, in folder: URL) async throws -> (summary: RunSummary, shard: [(name: String, data: [UInt8])], out: URL) {
        let input = folder.appendingPathComponent("data-000.tar").path
        if !FileManager.default.fileExists(atPath: input) {
            let writer = try TarWriter(path: input)
            for member in try Self.members() { try writer.add(path: member.name, data: member.data) }
            try writer.finish()
        }
        let out = folder.appendingPathComponent(copyUnknown ? "out-copy" : "out")
        let summary = try await PipelineRunner.run(
            try Pipelines.anonymize.compile(modelsDirectory: Fixtures.model("")), inputs: [.archive(path: input)],
            configuration: RedactedShardsTests.configuration(out, workers: 2, copyUnknown: copyUnknown), toolVersion: "test")
        return (summary, try RedactedShardsTests.read(out.appendingPathComponent("redacted/data-000.tar").path), out)
    }

    @Test func byDefaultNoPictureOrPackedMemberGoesIntoTheShard() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (summary, shard, out) = try await run(copyUnknown: false, in: folder)
        let original = Dictionary(uniqueKeysWithValues: try Self.members().map { ($0.name, $0.data) })
        #expect(shard.map(\.name) == ["s0.jpg", "s0.txt"])
        #expect(shard.first?.data != original["s0.jpg"], "redacted, not copied")
        #expect(shard.last?.data == original["s0.txt"], "the caption byte for byte")
        #expect(summary.copiedMembers == 1)
        #expect(summary.skipped.first.map(\.name) == ["s4.gz", "s5.tar"])
        #expect(summary.skipped.first.map(\.reason) == [
            "left out of the redacted shard: gzip data, which facepipe does not look inside (--copy-unknown copies it)",
            "left out of the redacted shard: a tar archive, which facepipe does not look inside (--copy-unknown copies it)",
        ])
        #expect(summary.leftOutOfShards.first.map(\.name) == Self.pictures)
        let rows = try ManifestReadBack.check(out)
        #expect(rows.map { $0["entry"]! } == ["s0.jpg"] + Self.pictures)
        for row in rows.dropFirst() {
            #expect(row["status"] == "error" && row["error"]!.hasPrefix("decode: unknown image format"), "\(row)")
        }
        #expect(summary.exitStatus == .someEntriesFailed, "pictures facepipe could not redact make the run's status 1")
    }

    @Test func copyUnknownCopiesWhatIsNotAPictureAndStillNoPicture() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (summary, shard, _) = try await run(copyUnknown: true, in: folder)
        let original = Dictionary(uniqueKeysWithValues: try Self.members().map { ($0.name, $0.data) })
        #expect(shard.map(\.name) == ["s0.jpg", "s0.txt", "s4.gz", "s5.tar"])
        for member in shard.dropFirst() { #expect(member.data == original[member.name], "\(member.name) byte for byte") }
        #expect(summary.copiedMembers == 3 && summary.skipped.isEmpty)
        #expect(summary.leftOutOfShards.first.map(\.name) == Self.pictures)
    }
}

/// `--copy-unknown` only means something with `--redacted-shards`.
@Suite(.enabled(if: FacepipeProcess.available, "build the facepipe binary first"))
struct CopyUnknownUsageTests {
    @Test func copyUnknownWithoutRedactedShardsIsAUsageError() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let tar = try PNGTar(sides: [8], in: folder)
        let input = folder.appendingPathComponent("in.tar")
        try Data(tar.bytes).write(to: input)
        let out = folder.appendingPathComponent("out")
        let result = try FacepipeProcess.run(["run", "anonymize", input.path, "--out", out.path, "--copy-unknown"], in: folder)
        #expect(result.status == 2)
        #expect(result.stderr.contains("--copy-unknown goes with --redacted-shards"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out.path))
    }
}
