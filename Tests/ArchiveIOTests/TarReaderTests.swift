import ArchiveIO
import Foundation
import _TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

@Suite struct TarReaderTests {
    static let samples: [(String, [UInt8])] = [
        ("photos/a.jpg", .random(count: 3000, seed: 1)),
        ("photos/b.png", .random(count: 513, seed: 2)),
        ("c.jpg", Array("not compressible? yes it is ".utf8) + Array(repeating: 7, count: 20_000)),
    ]

    struct CompressionCase: CustomTestStringConvertible, Sendable {
        let compression: TarWriter.Compression
        let magic: [UInt8]
        var testDescription: String { compression.rawValue }
    }

    static let compressions: [CompressionCase] = [
        CompressionCase(compression: .none, magic: []),
        CompressionCase(compression: .gzip, magic: [0x1F, 0x8B]),
        CompressionCase(compression: .bzip2, magic: Array("BZh".utf8)),
        CompressionCase(compression: .xz, magic: [0xFD, 0x37, 0x7A, 0x58, 0x5A, 0x00]),
        CompressionCase(compression: .zstd, magic: [0x28, 0xB5, 0x2F, 0xFD]),
    ]

    @Test(arguments: compressions)
    func readsEveryCompressionFormat(_ format: CompressionCase) throws {
        let directory = try TemporaryDirectory()
        // The file name says nothing: compression is recognised from the bytes.
        let path = try writeTar(Self.samples, in: directory, name: "archive.bin", compression: format.compression)
        let bytes = try directory.read("archive.bin")
        #expect(Array(bytes.prefix(format.magic.count)) == format.magic)

        let result = readAll(path)
        #expect(result.error == nil)
        try #require(result.files.count == Self.samples.count)
        for (index, (entry, sample)) in zip(result.files, Self.samples).enumerated() {
            #expect(entry.index == index)
            #expect(entry.name == sample.0)
            #expect(entry.rawName == Array(sample.0.utf8))
            #expect(entry.data == sample.1)
            #expect(entry.archive == path)
        }
    }

    @Test func skipsEverythingButRegularFilesWithReasons() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("special.tar")
        let writer = try TarWriter(path: path)
        try writer.addDirectory(path: "dir")
        try writer.add(path: "dir/real.jpg", data: [1, 2, 3])
        try writer.addSymbolicLink(path: "dir/link.jpg", target: "/etc/passwd")
        try writer.addHardLink(path: "dir/hard.jpg", target: "dir/real.jpg")
        try writer.addFIFO(path: "dir/pipe")
        try writer.finish()

        let result = readAll(path)
        #expect(result.error == nil)
        #expect(result.items.map(\.index) == [0, 1, 2, 3, 4])
        #expect(result.files.map(\.name) == ["dir/real.jpg"])
        #expect(result.skipped.map(\.kind) == [.directory, .symbolicLink, .hardLink, .fifo])
        #expect(result.skipped.allSatisfy { $0.reason == .notARegularFile })
        #expect(result.skipped.map(\.name) == ["dir/", "dir/link.jpg", "dir/hard.jpg", "dir/pipe"])
        #expect(result.skipped[1].linkTarget == "/etc/passwd")
        #expect(result.skipped[2].linkTarget == "dir/real.jpg")
    }

    @Test func keepsDuplicateNamesApartByIndex() throws {
        let directory = try TemporaryDirectory()
        let path = try writeTar([("same.jpg", [1]), ("other.jpg", [2]), ("same.jpg", [3])], in: directory)
        let files = readAll(path).files
        #expect(files.map(\.name) == ["same.jpg", "other.jpg", "same.jpg"])
        #expect(files.map(\.index) == [0, 1, 2])
        #expect(files.map(\.data) == [[1], [2], [3]])
    }

    @Test func deliversHostileNamesRawForTheCallerToSanitise() throws {
        let names: [[UInt8]] = [
            Array("../escape.jpg".utf8), Array("/abs.jpg".utf8), Array("a/../../b.jpg".utf8),
            [0x63, 0x61, 0x66, 0xE9, 0x2E, 0x6A, 0x70, 0x67],  // "caf\xE9.jpg": Latin-1, not UTF-8
            Array("back\\slash.jpg".utf8),
        ]
        var builder = UstarBuilder()
        for (i, name) in names.enumerated() { builder.append(rawName: name, data: [UInt8(i)]) }
        builder.finish()
        let directory = try TemporaryDirectory()
        let result = readAll(try directory.write("hostile.tar", builder.bytes))
        #expect(result.error == nil)
        #expect(result.files.map(\.rawName) == names)
        #expect(result.files.map(\.data) == [[0], [1], [2], [3], [4]])
        #expect(result.files[3].name == "caf\u{FFFD}.jpg")
    }

    @Test func longAndUnicodeNamesRoundTrip() throws {
        let long = String(repeating: "long-directory/", count: 20) + String(repeating: "x", count: 150) + ".jpg"
        let unicode = "café/Ünïcødé 写真.jpg"
        let directory = try TemporaryDirectory()
        let path = try writeTar([(long, [1]), (unicode, [2])], in: directory)
        #expect(readAll(path).files.map(\.name) == [long, unicode])
    }

    @Test func zeroByteEntryIsDeliveredEmpty() throws {
        let directory = try TemporaryDirectory()
        let path = try writeTar([("empty.jpg", []), ("one.jpg", [9])], in: directory)
        let files = readAll(path).files
        #expect(files.map(\.data) == [[], [9]])
    }

    @Test(arguments: [TarWriter.Compression.none, .gzip])
    func emptyArchiveHasNoItems(_ compression: TarWriter.Compression) throws {
        let directory = try TemporaryDirectory()
        let result = readAll(try writeTar([], in: directory, compression: compression))
        #expect(result.items.isEmpty)
        #expect(result.error == nil)
    }

    @Test func zeroByteFileIsAnEmptyArchive() throws {
        let directory = try TemporaryDirectory()
        let result = readAll(try directory.write("empty.tar", []))
        #expect(result.items.isEmpty)
        #expect(result.error == nil)
    }

    @Test(arguments: [TarWriter.Compression.none, .gzip, .zstd])
    func skipsEntriesAboveTheLimitWithoutReadingThem(_ compression: TarWriter.Compression) throws {
        let directory = try TemporaryDirectory()
        let path = try writeTar([("small.jpg", .random(count: 500, seed: 3)), ("big.jpg", .random(count: 5000, seed: 4)), ("after.jpg", [5])], in: directory, compression: compression)
        let result = readAll(path, options: TarReader.Options(maxEntryBytes: 1000))
        #expect(result.error == nil)
        #expect(result.files.map(\.name) == ["small.jpg", "after.jpg"])
        #expect(result.files.map(\.index) == [0, 2])
        let skipped = try #require(result.skipped.first)
        #expect(skipped.index == 1)
        #expect(skipped.kind == .regularFile)
        #expect(skipped.reason == .tooLarge(size: 5000, limit: 1000))
    }

    @Test func entryExactlyAtTheLimitIsDelivered() throws {
        let directory = try TemporaryDirectory()
        let path = try writeTar([("exact.jpg", .random(count: 1000, seed: 5))], in: directory)
        #expect(readAll(path, options: TarReader.Options(maxEntryBytes: 1000)).files.count == 1)
    }

    // MARK: - Damage

    /// Three 3000-byte entries: headers at 0, 3584, 7168; data of entry i at 512 + 3584·i.
    static func threeEntries() throws -> (TemporaryDirectory, [UInt8]) {
        let directory = try TemporaryDirectory()
        let path = try writeTar((0..<3).map { ("\($0).bin", [UInt8].random(count: 3000, seed: UInt64(10 + $0))) }, in: directory)
        return (directory, try [UInt8](Data(contentsOf: URL(fileURLWithPath: path))))
    }

    struct TruncationCase: CustomTestStringConvertible, Sendable {
        let label: String
        let cut: Int
        let deliveredBefore: Int
        let damagedName: String?
        let headerOffset: Int64
        var testDescription: String { label }
    }

    static let truncations: [TruncationCase] = [
        TruncationCase(label: "mid-data of entry 2", cut: 7168 + 512 + 1000, deliveredBefore: 2, damagedName: "2.bin", headerOffset: 7168),
        TruncationCase(label: "mid-header of entry 2", cut: 7168 + 100, deliveredBefore: 2, damagedName: nil, headerOffset: 3584),
        TruncationCase(label: "mid-data of entry 0", cut: 512 + 10, deliveredBefore: 0, damagedName: "0.bin", headerOffset: 0),
        TruncationCase(label: "mid-header of entry 1", cut: 3584 + 511, deliveredBefore: 1, damagedName: nil, headerOffset: 0),
    ]

    @Test(arguments: truncations)
    func truncatedTarDeliversEntriesBeforeTheDamageThenThrows(_ truncation: TruncationCase) throws {
        let (directory, bytes) = try Self.threeEntries()
        let path = try directory.write("cut.tar", Array(bytes.prefix(truncation.cut)))
        let result = readAll(path)
        #expect(result.files.map(\.name) == (0..<truncation.deliveredBefore).map { "\($0).bin" })
        #expect(result.files.map(\.data) == (0..<truncation.deliveredBefore).map { [UInt8].random(count: 3000, seed: UInt64(10 + $0)) })
        let damage = try #require(result.damage, "expected .damaged, got \(String(describing: result.error))")
        #expect(damage.archive == path)
        #expect(damage.entryIndex == truncation.deliveredBefore)
        #expect(damage.entryName == truncation.damagedName)
        #expect(damage.fileOffset <= Int64(truncation.cut))
        #expect(damage.headerOffset == truncation.headerOffset)
        #expect(damage.streamOffset <= Int64(truncation.cut))
        #expect(!damage.message.isEmpty)
        #expect(ArchiveError.damaged(damage).description.contains(path))
    }

    @Test func gzipStreamCutShortDeliversCompleteEntriesThenThrows() throws {
        let directory = try TemporaryDirectory()
        let samples = (0..<8).map { ("\($0).bin", [UInt8].random(count: 40_000, seed: UInt64(20 + $0))) }
        let path = try writeTar(samples, in: directory, name: "full.tar.gz", compression: .gzip)
        let bytes = try directory.read("full.tar.gz")
        let cutPath = try directory.write("cut.tar.gz", Array(bytes.prefix(bytes.count * 6 / 10)))
        #expect(readAll(path).files.count == 8)

        let result = readAll(cutPath)
        #expect(result.files.count >= 3 && result.files.count < 8)
        for entry in result.files { #expect(entry.data == samples[entry.index].1) }
        let damage = try #require(result.damage, "expected .damaged, got \(String(describing: result.error))")
        #expect(damage.archive == cutPath)
        #expect(damage.entryIndex == result.files.count)
        #expect(damage.fileOffset <= Int64(bytes.count * 6 / 10))
        #expect(damage.streamOffset > damage.fileOffset / 2)
    }

    @Test func corruptHeaderChecksumStopsWithDamage() throws {
        var builder = UstarBuilder()
        builder.append(rawName: Array("good.jpg".utf8), data: [1, 2])
        builder.append(rawName: Array("bad.jpg".utf8), data: [3], corruptChecksum: true)
        builder.append(rawName: Array("never.jpg".utf8), data: [4])
        builder.finish()
        let directory = try TemporaryDirectory()
        let result = readAll(try directory.write("corrupt.tar", builder.bytes))
        #expect(result.files.map(\.name) == ["good.jpg"])
        let damage = try #require(result.damage, "expected .damaged, got \(String(describing: result.error))")
        #expect(damage.entryIndex == 1)
        #expect(damage.entryName == nil)
    }

    @Test func headerClaimingMoreDataThanPresentIsDamage() throws {
        var builder = UstarBuilder()
        builder.append(rawName: Array("liar.jpg".utf8), data: [1, 2, 3], declaredSize: 1 << 20)
        let directory = try TemporaryDirectory()
        let result = readAll(try directory.write("liar.tar", builder.bytes))
        #expect(result.files.isEmpty)
        let damage = try #require(result.damage, "expected .damaged, got \(String(describing: result.error))")
        #expect(damage.entryName == "liar.jpg")
    }

    // MARK: - Opening

    @Test func missingFileIsACannotOpenErrorNamingThePath() throws {
        let directory = try TemporaryDirectory()
        let path = directory.file("missing.tar")
        #expect(throws: ArchiveError.self) { try TarReader(path: path) }
        do {
            _ = try TarReader(path: path)
        } catch {
            guard case .cannotOpen(let archive, let reason) = error else { Issue.record("got \(error)"); return }
            #expect(archive == path)
            #expect(reason.contains("No such file"))
            #expect(error.description.contains(path))
        }
    }

    @Test(arguments: [
        Array("this is a text file named .tar, not an archive\n".utf8),
        [0xFF, 0xD8, 0xFF, 0xE0] + [UInt8].random(count: 2000, seed: 6),
    ])
    func bytesThatAreNoArchiveAreUnsupportedFormat(_ bytes: [UInt8]) throws {
        let directory = try TemporaryDirectory()
        let path = try directory.write("fake.tar", bytes)
        let result = readAll(path)
        #expect(result.items.isEmpty)
        guard case .unsupportedFormat(let archive, _)? = result.error else {
            Issue.record("expected .unsupportedFormat, got \(String(describing: result.error))")
            return
        }
        #expect(archive == path)
    }

    @Test func directoryPathIsAnError() throws {
        let directory = try TemporaryDirectory()
        let result = readAll(directory.path)
        #expect(result.items.isEmpty)
        #expect(result.error != nil)
    }

    @Test func rejectsNonsenseOptions() throws {
        #expect(throws: ArchiveError.invalidOptions("blockSize must be > 0, got 0")) {
            try TarReader(path: "/nonexistent", options: TarReader.Options(blockSize: 0))
        }
        #expect(throws: ArchiveError.self) {
            try TarReader(path: "/nonexistent", options: TarReader.Options(maxEntryBytes: -1))
        }
    }
}

@Suite struct TarReaderPaxTests {
    @Test func paxUTF8AndLongNamesAreDeliveredAsTheirUTF8Bytes() throws {
        let unicode = "写真/café ü.jpg"
        let long = String(repeating: "a", count: 180) + "/" + String(repeating: "b", count: 120) + ".png"
        var builder = UstarBuilder()
        builder.appendPax([("path", unicode)])
        builder.append(rawName: Array("fallback1.jpg".utf8), data: [1])
        builder.appendPax([("path", long)])
        builder.append(rawName: Array("fallback2.png".utf8), data: [2])
        builder.finish()
        let directory = try TemporaryDirectory()
        let result = readAll(try directory.write("pax.tar", builder.bytes))
        #expect(result.error == nil)
        #expect(result.files.map(\.name) == [unicode, long])
        #expect(result.files.map(\.rawName) == [Array(unicode.utf8), Array(long.utf8)])
        #expect(result.files.map(\.index) == [0, 1], "a pax header and its entry are one item")
    }
}

@Suite struct ZipReadingTests {
    @Test func readsStoredZipMembers() throws {
        var zip = ZipBuilder()
        zip.add(name: "photos/a.jpg", data: .random(count: 1000, seed: 50))
        zip.add(name: "photos/ü.png", data: [1, 2, 3])
        let directory = try TemporaryDirectory()
        let result = readAll(try directory.write("photos.zip", zip.bytes))
        #expect(result.error == nil)
        #expect(result.files.map(\.name) == ["photos/a.jpg", "photos/ü.png"])
        #expect(result.files.map(\.data) == [.random(count: 1000, seed: 50), [1, 2, 3]])
    }

    /// An encrypted member and one with an unknown compression method are
    /// regular files the reader cannot read: `.unreadable`, and the archive goes on.
    @Test func encryptedAndUnsupportedMembersAreUnreadableFilesAndTheArchiveGoesOn() throws {
        var zip = ZipBuilder()
        zip.add(name: "a.jpg", data: [1, 2, 3])
        zip.add(name: "secret.jpg", data: .random(count: 300, seed: 51), encrypted: true)
        zip.add(name: "odd.jpg", data: .random(count: 300, seed: 52), method: 97)
        zip.add(name: "b.jpg", data: [4, 5])
        let directory = try TemporaryDirectory()
        let result = readAll(try directory.write("mixed.zip", zip.bytes))
        #expect(result.error == nil)
        #expect(result.files.map(\.name) == ["a.jpg", "b.jpg"])
        let unreadable = result.items.compactMap { item -> String? in
            guard case .skipped(let skipped) = item, skipped.kind == .regularFile,
                  case .unreadable = skipped.reason else { return nil }
            return skipped.name
        }
        #expect(unreadable == ["secret.jpg", "odd.jpg"], "\(result.items)")
    }

    /// An input that never ends (`/dev/zero`: to libarchive, an empty tar
    /// followed by endless zeros) is read past its end only up to the entry
    /// limit, hashed on the way, then reported, instead of hanging.
    @Test func aStreamThatNeverEndsIsReadOnlyUpToTheLimit() throws {
        let descriptor = open("/dev/zero", O_RDONLY | O_CLOEXEC)
        try #require(descriptor >= 0)
        defer { close(descriptor) }
        var observed = 0
        let reader = try TarReader(fileDescriptor: descriptor, name: "/dev/zero",
                                   options: .init(maxEntryBytes: 1 << 20)) { observed += $0.count }
        #expect(try reader.next() == nil)
        #expect(throws: ArchiveError.self) { try reader.readToEnd() }
        #expect(observed > 1 << 20 && observed < 4 << 20, "read once, as far as the limit: \(observed)")
    }
}
