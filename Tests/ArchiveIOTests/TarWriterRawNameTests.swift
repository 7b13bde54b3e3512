import ArchiveIO
import Foundation
import Testing

/// `add(rawPath:data:)` keeps a name's bytes as another archive stored
/// them, so a shard rewritten member by member has the input's names.
struct TarWriterRawNameTests {
    @Test(arguments: [
        Array("k0.jpg".utf8),
        Array("dir/ü.png".utf8),
        [0x6C, 0x61, 0x74, 0x69, 0x6E, 0xE9, 0x2E, 0x6A, 0x70, 0x67],  // "latiné.jpg" in Latin-1: not UTF-8
        Array((String(repeating: "long/", count: 30) + "name.json").utf8),
    ])
    func namesKeepTheirBytes(rawName: [UInt8]) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("facepipe-rawname-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("a.tar").path
        let writer = try TarWriter(path: path)
        try writer.add(rawPath: rawName, data: [1, 2, 3])
        try writer.finish()
        let reader = try TarReader(path: path)
        guard case .file(let entry)? = try reader.next() else { Issue.record("no file"); return }
        #expect(entry.rawName == rawName)
        #expect(entry.data == [1, 2, 3])
    }
}
