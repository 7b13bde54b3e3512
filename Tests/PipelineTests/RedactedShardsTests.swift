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

/// `--redacted-shards`: a WebDataset-style tar through `anonymize` comes out
/// as a tar with the same member names in the same order, images redacted
/// in their own format, every other member byte for byte, an undecodable
/// image left out.
@Suite(.enabled(if: Fixtures.modelsAvailable, "run `make models` first"))
struct RedactedShardsTests {
    /// A grey picture with a striped red "face" (the red pixels' bounding
    /// box is what ``RedSquareFaceEngine`` detects; the stripes are detail a
    /// blur removes) at (24, 20), 44 px wide.
    static func picture(shade: UInt8) -> RGBImage {
        var image = RGBImage(width: 160, height: 120, fill: (90, shade, 120))
        for y in 20..<64 { for x in 24..<68 {
            let p = (y * 160 + x) * 3
            let stripe = (x / 3) % 2 == 0
            image.pixels[p] = 255; image.pixels[p + 1] = stripe ? 0 : 200; image.pixels[p + 2] = stripe ? 0 : 200
        } }
        return image
    }

    static func jpeg(_ image: RGBImage) throws -> [UInt8] {
        try TurboJPEGCompressor().compress(image.pixels, width: image.width, height: image.height, input: .rgb, quality: 95)
    }

    /// A JPEG with an APP1 (EXIF) segment holding a maker string.
    static func jpegWithExif(_ image: RGBImage) throws -> [UInt8] {
        var tiff: [UInt8] = [0x49, 0x49, 42, 0, 8, 0, 0, 0, 1, 0]
        tiff += [0x0F, 0x01, 2, 0, 12, 0, 0, 0, 26, 0, 0, 0, 0, 0, 0, 0] // Make ASCII, offset 26
        tiff += Array("GPS-SECRET\0\0".utf8)
        let app1 = Array("Exif".utf8) + [0, 0] + tiff
        return [0xFF, 0xD8, 0xFF, 0xE1, UInt8((app1.count + 2) >> 8), UInt8((app1.count + 2) & 0xFF)] + app1
            + (try jpeg(image)).dropFirst(2)
    }

    /// The input's members, in order.
    static func members() throws -> [(name: String, data: [UInt8])] {
        [
            ("k0.jpg", try jpegWithExif(picture(shade: 60))),
            ("k0.json", Array(#"{"caption": "zero", "url": "https://example.org/0.jpg"}"#.utf8)),
            ("k0.txt", Array("a striped face\n".utf8)),
            ("k1.png", try PNGEncoder.encode(picture(shade: 70))),
            ("k1.cls", Array("3".utf8)),
            // A JPEG signature, then nothing a decoder can use.
            ("k2.jpg", [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10] + Array(repeating: 0x5A, count: 200)),
            ("k2.txt", Array("the image of this sample is damaged\n".utf8)),
            ("notes/readme.md", Array("# not a sample\n".utf8)),
        ]
    }

    static func archive(in folder: URL, compression: TarWriter.Compression = .none, name: String = "data-000.tar") throws -> String {
        let path = folder.appendingPathComponent(name).path
        let writer = try TarWriter(path: path, compression: compression)
        for member in try members() { try writer.add(path: member.name, data: member.data) }
        try writer.finish()
        return path
    }

    /// By default (`copyUnknown` false) captions and labels are copied: the
    /// WebDataset case these tests check; ``RedactedShardsHostileMemberTests``
    /// checks packed members and `--copy-unknown`.
    static func configuration(_ out: URL, workers: Int, copyUnknown: Bool = false) -> RunConfiguration {
        RunConfiguration(outputDirectory: out, workers: workers,
                         faceEngine: FaceEngineFactory { _ in RedSquareFaceEngine(made: CallCounter()) },
                         redactedShards: true, copyUnknown: copyUnknown)
    }

    /// The regular members of the tar at `path`, in order.
    static func read(_ path: String) throws -> [(name: String, data: [UInt8])] {
        let reader = try TarReader(path: path)
        var members: [(name: String, data: [UInt8])] = []
        while let item = try reader.next() {
            guard case .file(let entry) = item else { Issue.record("a non-file member \(item)"); continue }
            members.append((entry.name, entry.data))
        }
        return members
    }

    /// Mean absolute difference of two pictures of one size over the pixels where `inside` holds.
    static func meanDifference(_ a: RGBImage, _ b: RGBImage, where inside: (Int, Int) -> Bool) -> Double {
        var sum = 0, count = 0
        for y in 0..<a.height { for x in 0..<a.width where inside(x, y) {
            for c in 0..<3 {
                let p = (y * a.width + x) * 3 + c
                sum += abs(Int(a.pixels[p]) - Int(b.pixels[p]))
                count += 1
            }
        } }
        return count == 0 ? .nan : Double(sum) / Double(count)
    }

    static func column(_ name: String) -> Int { Manifest.columns.firstIndex(of: name)! }

    @Test func theShardHasTheInputsMembersWithEveryImageRedacted() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = try Self.archive(in: folder)
        let plan = try Pipelines.anonymize.compile(modelsDirectory: Fixtures.model(""))
        var shards: [Data] = []
        for workers in [1, 2] {
            let out = folder.appendingPathComponent("out\(workers)")
            let summary = try await PipelineRunner.run(plan, inputs: [.archive(path: input)],
                                                       configuration: Self.configuration(out, workers: workers), toolVersion: "test")
            #expect(summary.entries == 3 && summary.failedEntries == 1 && summary.copiedMembers == 5)
            #expect(summary.leftOutOfShards.first.map(\.name) == ["k2.jpg"])
            #expect(summary.line.contains("1 entry left out of the redacted shards"))
            shards.append(try Data(contentsOf: out.appendingPathComponent("redacted/data-000.tar")))
            #expect(!FileManager.default.fileExists(atPath: out.appendingPathComponent("images").path), "images go into the shard only")
        }
        #expect(shards[0] == shards[1], "the same shard bytes for 1 and 2 workers")

        let out = folder.appendingPathComponent("out1")
        let inputMembers = try Self.members()
        let shard = try Self.read(out.appendingPathComponent("redacted/data-000.tar").path)
        #expect(shard.map(\.name) == inputMembers.map(\.name).filter { $0 != "k2.jpg" }, "the input's names, in order, without the damaged image")
        let original = Dictionary(uniqueKeysWithValues: inputMembers.map { ($0.name, $0.data) })
        for member in shard where ["k0.json", "k0.txt", "k1.cls", "k2.txt", "notes/readme.md"].contains(member.name) {
            #expect(member.data == original[member.name], "\(member.name) copied byte for byte")
        }

        let rows = try ManifestReadBack.check(out)
        #expect(rows.map { $0["entry"]! } == ["k0.jpg", "k1.png", "k2.jpg"], "a row per image, none for the other members")
        #expect(rows[2]["status"] == "error" && rows[2]["error"]!.hasPrefix("decode: "))
        for (row, format) in zip(rows.prefix(2), [ImageFormat.jpeg, .png]) {
            let name = row["entry"]!
            #expect(row["output"] == "redacted/data-000.tar")
            let region = try ["redact_x", "redact_y", "redact_w", "redact_h"].map { try #require(Double(row[$0]!), "\(name): \($0)") }
            #expect(region[0] < 24 && region[1] < 20 && region[0] + region[2] > 68 && region[1] + region[3] > 64,
                    "\(name): the region \(region) covers the face")
            let redacted = try #require(shard.first { $0.name == name }).data
            #expect(ImageFormat(sniffing: redacted) == format, "\(name) keeps its format")
            if format == .jpeg {
                #expect(!RedactAndCropsTests.markersBeforeScan(redacted).contains(0xE1), "\(name): no APP1 (EXIF)")
                #expect(redacted.firstRange(of: Array("GPS-SECRET".utf8)) == nil)
            }
            let before = try ImageDecoder.decode(try #require(original[name])).image
            let after = try ImageDecoder.decode(redacted).image
            #expect(after.width == before.width && after.height == before.height, "\(name): the input's size")
            let (x0, y0, x1, y1) = (Int(region[0] + region[2] * 0.25), Int(region[1] + region[3] * 0.25),
                                    Int(region[0] + region[2] * 0.75), Int(region[1] + region[3] * 0.75))
            let inside = Self.meanDifference(before, after) { x, y in x >= x0 && x < x1 && y >= y0 && y < y1 }
            #expect(inside > 20, "\(name): the stripes inside the region are gone (mean difference \(inside))")
            let far = Self.meanDifference(before, after) { x, _ in x >= Int(region[0] + region[2]) + 16 }
            #expect(far <= (format == .png ? 0 : 2), "\(name): pixels far from the region are kept (mean difference \(far))")
        }
    }

    @Test func aCompressedInputGivesAShardCompressedTheSameWay() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = try Self.archive(in: folder, compression: .gzip, name: "data-001.tar.gz")
        let out = folder.appendingPathComponent("out")
        _ = try await PipelineRunner.run(try Pipelines.anonymize.compile(modelsDirectory: Fixtures.model("")),
                                         inputs: [.archive(path: input)], configuration: Self.configuration(out, workers: 2),
                                         toolVersion: "test")
        let path = out.appendingPathComponent("redacted/data-001.tar.gz").path
        let head = [UInt8](try #require(FileManager.default.contents(atPath: path)).prefix(2))
        #expect(head == [0x1F, 0x8B], "gzip")
        #expect(try Self.read(path).map(\.name) == (try Self.members()).map(\.name).filter { $0 != "k2.jpg" })
    }

    /// A run stopped part-way through an input writes no shard for it (not
    /// under its name, not as a temporary file).
    @Test func aStoppedRunLeavesNoHalfShard() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = try Self.archive(in: folder)
        let out = folder.appendingPathComponent("out")
        let asked = CallCounter()
        let hooks = RunHooks(shouldStop: { asked.hit("stop"); return asked.count("stop") > 3 })
        let summary = try await PipelineRunner.run(try Pipelines.anonymize.compile(modelsDirectory: Fixtures.model("")),
                                                   inputs: [.archive(path: input)], configuration: Self.configuration(out, workers: 1),
                                                   toolVersion: "test", hooks: hooks)
        #expect(summary.interrupted)
        let left = try FileManager.default.contentsOfDirectory(atPath: out.appendingPathComponent("redacted").path)
        #expect(left.isEmpty, "nothing in redacted/: \(left)")
        #expect(try manifestRows(out).isEmpty, "no rows for the shard that is not written")
        #expect(summary.entries == 0 && summary.notes == ["redacted/data-000.tar is not written (its input was not read to the end); the manifest lists none of its entries"])
    }

    @Test(arguments: [
        ("faces", "no redact stage"),
        ("anonymize+png", "writes png"),
    ])
    func aPipelineThatCannotSwapShardsIsRefused(pipeline: String, reason: String) async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = try Self.archive(in: folder)
        let out = folder.appendingPathComponent("out")
        let definition = pipeline == "faces" ? Pipelines.faces
            : try Pipelines.anonymize.overriding([StageOverride(stage: "write-outputs", option: "images", value: "png")])
        let plan = try definition.compile(modelsDirectory: Fixtures.model(""))
        await #expect { try await PipelineRunner.run(plan, inputs: [.archive(path: input)],
                                                     configuration: Self.configuration(out, workers: 1), toolVersion: "test") }
            throws: { "\($0)".contains("--redacted-shards") && "\($0)".contains(reason) }
        #expect(!FileManager.default.fileExists(atPath: out.path), "refused before the output folder is made")
    }

    @Test func inputsThatAreNotTarFilesAreRefused() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let images = folder.appendingPathComponent("photos")
        try FileManager.default.createDirectory(at: images, withIntermediateDirectories: true)
        let photo = images.appendingPathComponent("a.jpg")
        try Data(try Self.jpeg(Self.picture(shade: 60))).write(to: photo)
        let zip = folder.appendingPathComponent("data.zip")
        try Data([0x50, 0x4B, 0x03, 0x04] + Array(repeating: 0, count: 60)).write(to: zip)
        let plan = try Pipelines.anonymize.compile(modelsDirectory: Fixtures.model(""))
        for (input, reason) in [(images.path, "a folder"), (photo.path, "a single image"), (zip.path, "a zip")] {
            let out = folder.appendingPathComponent("out")
            await #expect { try await PipelineRunner.run(plan, inputs: [try RunInput.fromArgument(input)],
                                                         configuration: Self.configuration(out, workers: 1), toolVersion: "test") }
                throws: { "\($0)".contains(reason) }
        }
        var resumed = Self.configuration(folder.appendingPathComponent("out"), workers: 1)
        resumed.resume = true
        await #expect { try await PipelineRunner.run(plan, inputs: [.archive(path: try Self.archive(in: folder))],
                                                     configuration: resumed, toolVersion: "test") }
            throws: { "\($0)".contains("--resume cannot continue redacted shards") }
    }

    /// The shard read back with the `webdataset` package: the same sample
    /// keys as the input, each sample with the input's files but the
    /// damaged image.
    @Test(.enabled(if: ExportReaders.available, "run `make export-venv` first"))
    func theWebDatasetPackageReadsTheSameSamples() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = try Self.archive(in: folder)
        let out = folder.appendingPathComponent("out")
        _ = try await PipelineRunner.run(try Pipelines.anonymize.compile(modelsDirectory: Fixtures.model("")),
                                         inputs: [.archive(path: input)], configuration: Self.configuration(out, workers: 2),
                                         toolVersion: "test")
        func samples(_ shard: String) throws -> [String] {
            let read = try ExportReaders.check(["webdataset", shard])
            let samples = try #require(read["samples"] as? [[String: Any]])
            return samples.map { "\($0["key"] as? String ?? "?"): \(($0["files"] as? [String] ?? []).joined(separator: " "))" }
        }
        let before = try samples(input), after = try samples(out.appendingPathComponent("redacted/data-000.tar").path)
        #expect(before == ["k0: jpg json txt", "k1: cls png", "k2: jpg txt", "notes/readme: md"])
        #expect(after == ["k0: jpg json txt", "k1: cls png", "k2: txt", "notes/readme: md"])
    }
}

/// Which members `--redacted-shards` redacts and which it copies.
struct RedactedTarMemberTests {
    @Test(arguments: [
        ("a.jpg", [UInt8](), RedactedTarMember.image),
        ("dir/b.JPEG", [], .image),
        ("c.webp", Array("not really".utf8), .image),
        ("d.bin", Array("RIFF\u{0}\u{0}\u{0}\u{0}WEBPVP8 ".utf8), .image),
        ("e.dat", [0xFF, 0xD8, 0xFF, 0xE0], .image),
        ("f.txt", [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A], .image),
        ("g.json", Array("{}".utf8), .copied),
        ("h.cls", Array("BMW".utf8), .copied),
        ("i.txt", Array("GIF89a".utf8), .image),
        ("jpg", Array("no extension".utf8), .copied),
    ])
    func membersAreImagesByNameOrBytes(name: String, data: [UInt8], expected: RedactedTarMember) {
        for copyUnknown in [false, true] {
            #expect(RedactedTarMember(name: name, data: data, copyUnknown: copyUnknown) == expected)
        }
    }
}

/// A run that cannot finish a shard writes none under its name and lists
/// none of its entries.
@Suite(.enabled(if: Fixtures.modelsAvailable, "run `make models` first"))
struct RedactedShardsFailureTests {
    @Test func aWriteFailureRemovesTheShardBeingWrittenAndItsRows() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let first = try RedactedShardsTests.archive(in: folder)
        let second = folder.appendingPathComponent("data-001.tar").path
        let writer = try TarWriter(path: second)
        try writer.add(path: "k0.jpg", data: try RedactedShardsTests.jpeg(RedactedShardsTests.picture(shade: 50)))
        try writer.add(path: "k0.txt", data: Array("zero".utf8))
        try writer.add(path: "sub/k5.png", data: try PNGEncoder.encode(RedactedShardsTests.picture(shade: 80)))
        try writer.finish()
        let plan = try Pipelines.anonymize.compile(modelsDirectory: Fixtures.model(""))
        let inputs: [RunInput] = [.archive(path: first), .archive(path: second)]
        let out = folder.appendingPathComponent("out")
        // A whole run first (its run.json lets the rerun into DIR), then faces/data-001.tar/sub becomes a link.
        _ = try await PipelineRunner.run(plan, inputs: inputs, configuration: RedactedShardsTests.configuration(out, workers: 2),
                                         toolVersion: "test")
        #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent("redacted/data-001.tar").path))
        let elsewhere = folder.appendingPathComponent("elsewhere")
        try FileManager.default.createDirectory(at: elsewhere, withIntermediateDirectories: true)
        let link = out.appendingPathComponent("faces/data-001.tar/sub")
        try FileManager.default.removeItem(at: link)
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: elsewhere)

        let failed = try await PipelineRunner.run(plan, inputs: inputs, configuration: RedactedShardsTests.configuration(out, workers: 2),
                                                  toolVersion: "test")
        let failure = try #require(failed.writeFailure)
        #expect(failure.contains("faces/data-001.tar/sub") && failure.contains("redacted/data-001.tar is not written"), "\(failure)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: out.appendingPathComponent("redacted").path) == ["data-000.tar"],
                "the first input's shard only: no half shard, and not the earlier run's")
        let rows = try manifestRows(out)
        #expect(rows.map { $0[RedactedShardsTests.column("archive")] } == ["data-000.tar", "data-000.tar", "data-000.tar"],
                "no rows of the shard that is not written")
        #expect(failed.entries == 3 && failed.copiedMembers == 5, "counted as the manifest and the shards hold them")
        #expect(OutputLinkTests.listing(elsewhere).isEmpty)
    }
}
