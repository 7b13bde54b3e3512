import Foundation
import Pipeline
import RunFolders
import Testing

/// The pack behind the stage cache and the completion records: a handful
/// of files whatever it holds, every record found again after the index
/// grows, segments roll over and the pack is reopened, and anything damaged
/// (a cut segment, a record moved, an index slot or header overwritten)
/// reported as damaged or rebuilt, never returned as another record.
@Suite struct RecordPackTests {
    static func payload(_ i: Int) -> [UInt8] {
        Array("record \(i) ".utf8) + [UInt8](repeating: UInt8(truncatingIfNeeded: i), count: i % 97)
    }

    static func names(_ folder: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
    }

    @Test func manyRecordsInTwoFilesFoundAgainAfterTheIndexGrowsAndAReopen() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let count = 5_000
        do {
            let pack = try RecordPack(path: folder.path)
            for i in 0..<count { try pack.write(Self.payload(i), for: "key \(i)") }
            for i in stride(from: 0, to: count, by: 7) { #expect(pack.read("key \(i)") == .found(Self.payload(i))) }
            #expect(pack.read("key \(count)") == .absent)
        }
        #expect(try Self.names(folder) == ["000001.seg", "index"])
        let reopened = try RecordPack(path: folder.path)
        #expect(!reopened.rebuiltIndex)
        for i in 0..<count { #expect(reopened.read("key \(i)") == .found(Self.payload(i))) }
        let bytes = try FileManager.default.attributesOfItem(atPath: folder.appendingPathComponent("000001.seg").path)[.size] as! Int
        let payloads = (0..<count).reduce(0) { $0 + Self.payload($1).count }
        #expect(bytes == payloads + count * RecordPack.frameSize, "a segment is its records and their frames, nothing else")
    }

    @Test func aNewerRecordReplacesAnOlderOneAndTheSameBytesAreNotWrittenTwice() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let pack = try RecordPack(path: folder.path)
        try pack.write([1, 2, 3], for: "k")
        let segment = folder.appendingPathComponent("000001.seg")
        let once = try Data(contentsOf: segment).count
        try pack.write([1, 2, 3], for: "k")
        #expect(try Data(contentsOf: segment).count == once)
        try pack.write([4, 5], for: "k")
        #expect(pack.read("k") == .found([4, 5]))
        #expect(try RecordPack(path: folder.path).read("k") == .found([4, 5]))
    }

    @Test func segmentsRollOverAndEachRunStartsItsOwn() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        do {
            let pack = try RecordPack(path: folder.path, segmentLimit: 1_000)
            for i in 0..<100 { try pack.write(Self.payload(i), for: "key \(i)") }
        }
        let first = try Self.names(folder).filter { $0.hasSuffix(".seg") }
        #expect(first.count > 3)
        let next = try RecordPack(path: folder.path, segmentLimit: 1_000)
        #expect(try Self.names(folder).filter { $0.hasSuffix(".seg") } == first, "a run that writes nothing adds no file")
        try next.write([9], for: "key 3")
        let numbers = try Self.names(folder).compactMap(RecordPack.segmentNumber)
        #expect(numbers.last == first.count + 1)
        for i in 0..<100 { #expect(next.read("key \(i)") == .found(i == 3 ? [9] : Self.payload(i))) }
    }

    @Test func aDamagedOrMissingIndexIsRebuiltFromTheSegmentsNewestLast() throws {
        for damage in ["header", "missing", "truncated"] {
            let folder = try temporaryFolder()
            defer { try? FileManager.default.removeItem(at: folder) }
            do {
                let pack = try RecordPack(path: folder.path, segmentLimit: 4_000)
                for i in 0..<300 { try pack.write(Self.payload(i), for: "key \(i)") }
                try pack.write([7, 7], for: "key 10")
            }
            let index = folder.appendingPathComponent("index")
            switch damage {
            case "header":
                var bytes = try [UInt8](Data(contentsOf: index))
                bytes[9] ^= 0xFF
                try Data(bytes).write(to: index)
            case "missing": try FileManager.default.removeItem(at: index)
            default: try Data(try Data(contentsOf: index).prefix(1000)).write(to: index)
            }
            let pack = try RecordPack(path: folder.path)
            #expect(pack.rebuiltIndex, "\(damage)")
            for i in 0..<300 { #expect(pack.read("key \(i)") == .found(i == 10 ? [7, 7] : Self.payload(i)), "\(damage)") }
        }
    }

    @Test func aSlotOrSegmentThatNoLongerMatchesIsDamageNotAnotherRecord() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        do {
            let pack = try RecordPack(path: folder.path)
            for i in 0..<50 { try pack.write(Self.payload(i), for: "key \(i)") }
        }
        let segment = folder.appendingPathComponent("000001.seg")
        var bytes = try [UInt8](Data(contentsOf: segment))
        // The frame of the first record names another key; the file loses its last 10 bytes.
        bytes[10] ^= 1
        bytes.removeLast(10)
        try Data(bytes).write(to: segment)
        let pack = try RecordPack(path: folder.path)
        guard case .damaged = pack.read("key 0") else { Issue.record("a frame naming another key was returned"); return }
        guard case .damaged = pack.read("key 49") else { Issue.record("a cut record was returned"); return }
        #expect(pack.read("key 20") == .found(Self.payload(20)))

        // Every slot pointed at record 1's frame: only key 1 is found, the rest are damaged.
        let index = folder.appendingPathComponent("index")
        var table = try [UInt8](Data(contentsOf: index))
        let record1 = Self.payload(0).count + RecordPack.frameSize
        for slot in stride(from: 64, to: table.count, by: 32) where table[slot + 16..<slot + 20] != [0, 0, 0, 0] {
            for (i, byte) in withUnsafeBytes(of: UInt64(record1).littleEndian, Array.init).enumerated() { table[slot + 24 + i] = byte }
            for (i, byte) in withUnsafeBytes(of: UInt32(Self.payload(1).count).littleEndian, Array.init).enumerated() { table[slot + 20 + i] = byte }
        }
        try Data(table).write(to: index)
        let pointed = try RecordPack(path: folder.path)
        #expect(pointed.read("key 1") == .found(Self.payload(1)))
        for i in 2..<49 {
            guard case .damaged = pointed.read("key \(i)") else { Issue.record("key \(i) read another record"); return }
        }
    }

    @Test func anotherLayoutsFilesAreNamed() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("ab"), withIntermediateDirectories: true)
        try Data([1]).write(to: folder.appendingPathComponent("ab/abcdef.rec"))
        #expect(try RecordPack(path: folder.path).legacyNames == ["ab"])
    }
}

/// The cache of a whole run: a few files whatever the number of entries,
/// its bytes on disk close to its records' own size (issue 51; `make
/// bench-scale` measures the same at 200 000 entries).
@Suite struct CacheFilesPerEntryTests {
    @Test func aRunOfTwoThousandEntriesLeavesAHandfulOfCacheFiles() async throws {
        let out = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: out) }
        let entries = 2_000
        let summary = try await run(redSquarePipeline(), [memoryInput("a.tar", sampleItems(archive: "a.tar", count: entries))], out: out)
        #expect(summary.failedEntries > 0 && summary.failedEntries < entries)
        var files = 0, allocated = 0, apparent = 0
        let cache = out.appendingPathComponent(".cache")
        for case let relative as String in FileManager.default.enumerator(atPath: cache.path)! {
            var status = stat()
            guard lstat(cache.appendingPathComponent(relative).path, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { continue }
            files += 1
            allocated += Int(status.st_blocks) * 512
            if !relative.hasSuffix("index") { apparent += Int(status.st_size) }
        }
        #expect(Double(files) / Double(entries) < 0.05, "\(files) files for \(entries) entries")
        #expect(Double(allocated) < 1.3 * Double(apparent), "\(allocated) bytes on disk for \(apparent) bytes of records")
        let rerun = try await run(redSquarePipeline(), [memoryInput("a.tar", sampleItems(archive: "a.tar", count: entries))], out: out, resume: true)
        #expect(rerun.resumedEntries == entries)
    }
}
