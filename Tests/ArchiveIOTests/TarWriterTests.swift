import ArchiveIO
import Foundation
import Testing

@Suite struct TarWriterTests {
    static let files: [(String, [UInt8])] = [
        ("images/a.png", .random(count: 10_000, seed: 30)),
        ("images/ü/b.png", Array(repeating: 1, count: 700)),
        (String(repeating: "deep/", count: 40) + "c.json", Array("{}".utf8)),
    ]

    @Test(arguments: TarWriter.Compression.allCases)
    func sameCallsGiveTheSameBytes(_ compression: TarWriter.Compression) throws {
        let directory = try TemporaryDirectory()
        _ = try writeTar(Self.files, in: directory, name: "one", compression: compression)
        _ = try writeTar(Self.files, in: directory, name: "two", compression: compression)
        #expect(try directory.read("one") == directory.read("two"))
    }

    @Test func gzipHeaderHasNoTimestamp() throws {
        let directory = try TemporaryDirectory()
        _ = try writeTar(Self.files, in: directory, name: "a.tar.gz", compression: .gzip)
        let bytes = try directory.read("a.tar.gz")
        #expect(Array(bytes[0..<2]) == [0x1F, 0x8B])
        #expect(Array(bytes[4..<8]) == [0, 0, 0, 0], "MTIME field of the gzip header")
    }

    @Test func headersCarryNoTimeOwnerOrUserName() throws {
        let directory = try TemporaryDirectory()
        _ = try writeTar([("a.png", [1, 2, 3])], in: directory, name: "a.tar")
        let header = Array(try directory.read("a.tar").prefix(512))
        func field(_ range: Range<Int>) -> String {
            String(decoding: header[range].prefix { $0 != 0 && $0 != 0x20 }, as: UTF8.self)
        }
        #expect(field(0..<100) == "a.png")
        #expect(Int(field(100..<108), radix: 8) == 0o644)
        #expect(Int(field(108..<116), radix: 8) == 0, "uid")
        #expect(Int(field(116..<124), radix: 8) == 0, "gid")
        #expect(Int(field(124..<136), radix: 8) == 3, "size")
        #expect(Int(field(136..<148), radix: 8) == 0, "mtime")
        #expect(header[156] == UInt8(ascii: "0"))
        #expect(Array(header[257..<262]) == Array("ustar".utf8))
        #expect(field(265..<297) == "", "uname")
        #expect(field(297..<329) == "", "gname")
    }

    @Test func modificationTimeCanBeGiven() throws {
        let directory = try TemporaryDirectory()
        let writer = try TarWriter(path: directory.file("t.tar"))
        try writer.add(path: "a", data: [], modificationTime: 1_700_000_000)
        try writer.finish()
        let header = Array(try directory.read("t.tar").prefix(512))
        #expect(Int(String(decoding: header[136..<147], as: UTF8.self), radix: 8) == 1_700_000_000)
    }

    @Test func readsBackWhatItWrote() throws {
        let directory = try TemporaryDirectory()
        let path = try writeTar(Self.files, in: directory, compression: .xz)
        let files = readAll(path).files
        #expect(files.map(\.name) == Self.files.map(\.0))
        #expect(files.map(\.data) == Self.files.map(\.1))
    }

    @Test func nothingIsLeftBehindWithoutFinish() throws {
        let directory = try TemporaryDirectory()
        do {
            let writer = try TarWriter(path: directory.file("never.tar"))
            try writer.add(path: "a", data: [1])
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
    }

    @Test func writesGoToAPartialFileUntilFinish() throws {
        let directory = try TemporaryDirectory()
        let writer = try TarWriter(path: directory.file("out.tar"))
        try writer.add(path: "a", data: [1])
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["out.tar.partial"])
        try writer.finish()
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["out.tar"])
    }

    @Test func refusesUseAfterFinish() throws {
        let directory = try TemporaryDirectory()
        let writer = try TarWriter(path: directory.file("out.tar"))
        try writer.finish()
        #expect(throws: ArchiveError.writerFinished(archive: directory.file("out.tar"))) { try writer.add(path: "late", data: []) }
        #expect(throws: ArchiveError.writerFinished(archive: directory.file("out.tar"))) { try writer.finish() }
    }

    @Test(arguments: ["", "a\0b.png"])
    func refusesNamesACStringCannotCarry(_ name: String) throws {
        let directory = try TemporaryDirectory()
        let writer = try TarWriter(path: directory.file("out.tar"))
        #expect(throws: ArchiveError.self) { try writer.add(path: name, data: [1]) }
        try writer.add(path: "fine.png", data: [2])
        try writer.finish()
        #expect(readAll(directory.file("out.tar")).files.map(\.name) == ["fine.png"])
    }

    @Test func unwritableLocationIsACannotWriteError() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("no/such/dir/out.tar")
        do {
            _ = try TarWriter(path: path)
            Issue.record("expected an error")
        } catch {
            guard case .cannotWrite(let archive, let reason) = error else { Issue.record("got \(error)"); return }
            #expect(archive == path)
            #expect(!reason.isEmpty)
        }
    }
}
