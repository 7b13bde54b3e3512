import ArchiveIO
import Foundation
import Testing

/// The reader holds one entry at a time: checked by structure (how far into
/// the file it has read when it hands out entry k), not by process memory.
@Suite struct TarReaderStreamingTests {
    static let entryCount = 200
    static let entryBytes = 1 << 20

    @Test func largeArchiveIsReadOneEntryAtATime() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("large.tar")
        let writer = try TarWriter(path: path)
        for k in 0..<Self.entryCount {
            var data = [UInt8](repeating: UInt8(k & 0xFF), count: Self.entryBytes)
            data[Self.entryBytes - 1] = 0xEE
            try writer.add(path: "img\(k).jpg", data: data)
        }
        try writer.finish()

        let options = TarReader.Options()
        let reader = try TarReader(path: path, options: options)
        let stride = Int64(512 + Self.entryBytes)
        var k = 0
        while let item = try reader.next() {
            guard case .file(let entry) = item else { Issue.record("unexpected \(item)"); break }
            #expect(entry.index == k)
            #expect(entry.data.count == Self.entryBytes)
            #expect(entry.data.first == UInt8(k & 0xFF) && entry.data.last == 0xEE)
            // Everything read so far is this entry and those before it, plus
            // at most a couple of read blocks of look-ahead.
            let bound = Int64(k + 1) * stride + Int64(2 * options.blockSize)
            if reader.fileBytesRead > bound {
                Issue.record("after entry \(k) the reader had read \(reader.fileBytesRead) bytes, more than \(bound)")
                break
            }
            k += 1
        }
        #expect(k == Self.entryCount)
    }

    @Test func skippingATooLargeEntryDoesNotBufferIt() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("skip.tar")
        let writer = try TarWriter(path: path)
        try writer.add(path: "huge.bin", data: [UInt8](repeating: 1, count: 8 << 20))
        try writer.add(path: "small.bin", data: [2])
        try writer.finish()

        let reader = try TarReader(path: path, options: TarReader.Options(maxEntryBytes: 1 << 20))
        let first = try #require(try reader.next())
        guard case .skipped(let skipped) = first else { Issue.record("expected skipped"); return }
        #expect(skipped.reason == .tooLarge(size: 8 << 20, limit: 1 << 20))
        // Deciding to skip needs only the header.
        #expect(reader.fileBytesRead <= Int64(2 * TarReader.Options().blockSize))
        guard case .file(let small)? = try reader.next() else { Issue.record("expected small.bin"); return }
        #expect(small.data == [2])
    }
}
