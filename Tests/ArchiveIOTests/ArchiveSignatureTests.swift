import ArchiveIO
import Foundation
import Testing

/// An archive's kind from its first bytes, as `--redacted-shards` reads it
/// to write each shard under its input's compression.
struct ArchiveSignatureTests {
    /// Each compression TarWriter writes is recognised from what TarWriter writes.
    @Test(arguments: TarWriter.Compression.allCases)
    func everyWrittenCompressionIsRecognised(compression: TarWriter.Compression) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("facepipe-signature-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("a.tar").path
        let writer = try TarWriter(path: path, compression: compression)
        try writer.add(path: "a.txt", data: Array("a".utf8))
        try writer.finish()
        let prefix = try #require(FileManager.default.contents(atPath: path)).prefix(ArchiveSignature.prefixLength)
        #expect(ArchiveSignature(prefix: prefix) == .tar(compression: compression))
    }

    @Test(arguments: [
        ([0x50, 0x4B, 0x03, 0x04, 0, 0], ArchiveSignature.zip),
        ([0x04, 0x22, 0x4D, 0x18, 0, 0], .unwritableCompression("lz4")),
        (Array("LZIP\u{1}".utf8), .unwritableCompression("lzip")),
        ([0x1F, 0x9D, 0x90], .unwritableCompression("compress (.Z)")),
        ([], .tar(compression: .none)),
    ] as [([UInt8], ArchiveSignature)])
    func otherKindsAreNamed(prefix: [UInt8], expected: ArchiveSignature) {
        #expect(ArchiveSignature(prefix: prefix) == expected)
    }
}
