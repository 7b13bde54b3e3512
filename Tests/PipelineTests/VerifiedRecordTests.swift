import Foundation
import ImageCore
import Pipeline
import RunFolders
import Testing

/// The stage cache and the completion records are checked before use: a
/// damaged, rewritten or out-of-date record is recomputed (and counted),
/// never trusted, and no link planted under `DIR/.cache` is followed.
@Suite struct VerifiedRecordTests {
    let inputs = [memoryInput("a.tar", sampleItems(archive: "a.tar", count: 12))]

    /// A record in a pack: where its payload lies and its key's SHA-256.
    typealias Location = (keyHash: [UInt8], segment: String, offset: Int, length: Int)

    static func records(in folder: URL) throws -> [Location] {
        try RecordPack(path: folder.path).locations()
    }

    static func stageRecords(_ out: URL) throws -> [Location] { try records(in: out.appendingPathComponent(".cache/stages")) }
    static func completionRecords(_ out: URL) throws -> [Location] { try records(in: out.appendingPathComponent(".cache/done")) }

    /// The payload at `location` in the pack `folder`.
    static func payload(_ location: Location, in folder: URL) throws -> [UInt8] {
        let bytes = try [UInt8](Data(contentsOf: folder.appendingPathComponent(location.segment)))
        return Array(bytes[location.offset..<location.offset + location.length])
    }

    /// Flips one bit of the payload at `location`, `fromEnd` bytes before its end (or in its middle), in place.
    static func flip(_ location: Location, in folder: URL, fromEnd: Int? = nil) throws {
        let url = folder.appendingPathComponent(location.segment)
        var bytes = try [UInt8](Data(contentsOf: url))
        bytes[location.offset + (fromEnd.map { location.length - $0 } ?? location.length / 2)] ^= 0x10
        try Data(bytes).write(to: url)
    }

    @Test func aFlippedByteInACacheFileIsRecomputedAndCounted() async throws {
        let out = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: out) }
        let counter = CallCounter()
        _ = try await run(redSquarePipeline(counter: counter), inputs, out: out)
        let reference = try outputFiles(out)
        let stages = out.appendingPathComponent(".cache/stages")
        let files = try Self.stageRecords(out)
        #expect(!files.isEmpty)
        for file in files { try Self.flip(file, in: stages) }
        let detections = counter.count("detect-red")
        let rerun = try await run(redSquarePipeline(counter: counter), inputs, out: out)
        #expect(rerun.damagedRecords == files.count)
        #expect(rerun.cacheHits == 0)
        #expect(counter.count("detect-red") == 2 * detections, "every damaged result recomputed")
        #expect(rerun.line.contains("\(files.count) cache records damaged, recomputed"))
        #expect(try outputFiles(out) == reference)
        let again = try await run(redSquarePipeline(counter: counter), inputs, out: out)
        #expect(again.damagedRecords == 0, "the recomputed results were stored again")
        #expect(again.cacheHits > 0)
    }

    /// Values a stage could never have produced, sealed again with a valid checksum.
    enum Forgery: String, CaseIterable, CustomTestStringConvertible {
        case hugeHeight, otherWidth, otherOrientation, shortPointList, notFiniteConfidence, otherFingerprint
        var testDescription: String { rawValue }

        func apply(to result: inout CachedStageResult) {
            switch self {
            case .hugeHeight: result.record.height = Int.max
            case .otherWidth: result.record.width += 1
            case .otherOrientation: result.record.exifOrientation = 9
            case .shortPointList:
                var group = PointGroup(name: "mesh", points: [Point(x: 1, y: 2), Point(x: 3, y: 4)])
                group.y.removeLast()
                if result.record.faces.isEmpty {
                    result.record.faces = [FaceRecord(face: 0, confidence: 0.9, box: Rect(x: 0, y: 0, width: 2, height: 2))]
                }
                result.record.faces[0].pointGroups.append(group)
            case .notFiniteConfidence:
                result.record.faces = [FaceRecord(face: 0, confidence: .nan, box: Rect(x: 0, y: 0, width: 2, height: 2))]
            case .otherFingerprint: result.stageFingerprint = String(repeating: "0", count: 64)
            }
        }
    }

    @Test(arguments: Forgery.allCases)
    func forgedButSealedValuesAreRecomputedNotTrusted(_ forgery: Forgery) async throws {
        let out = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: out) }
        _ = try await run(redSquarePipeline(), inputs, out: out)
        let reference = try outputFiles(out)
        let stages = out.appendingPathComponent(".cache/stages")
        let files = try Self.stageRecords(out)
        // Whoever can write below DIR/.cache can append a record and point the index at it.
        let pack = try RecordPack(path: stages.path)
        for file in files {
            var result = try SealedRecord.open(CachedStageResult.self, kind: .stageResult,
                                               from: Self.payload(file, in: stages))
            forgery.apply(to: &result)
            try pack.write(SealedRecord.seal(result, kind: .stageResult), keyHash: file.keyHash)
        }
        let rerun = try await run(redSquarePipeline(), inputs, out: out)
        #expect(rerun.damagedRecords == files.count)
        #expect(try outputFiles(out) == reference, "the manifest and files are those of a fresh run")
    }

    @Test func aDamagedCompletionRecordIsRedone() async throws {
        let out = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: out) }
        _ = try await run(redSquarePipeline(), inputs, out: out)
        let reference = try outputFiles(out)
        let done = out.appendingPathComponent(".cache/done")
        let files = try Self.completionRecords(out)
        #expect(files.count == 12)
        try Self.flip(files[3], in: done, fromEnd: 40)
        // Sealed again, but with no manifest row (a row of another width does not decode: ManifestRow).
        var forged = try SealedRecord.open(CompletionRecord.self, kind: .completion, from: Self.payload(files[5], in: done))
        forged.rows = []
        try RecordPack(path: done.path).write(SealedRecord.seal(forged, kind: .completion), keyHash: files[5].keyHash)

        let resumed = try await run(redSquarePipeline(), inputs, out: out, resume: true)
        #expect(resumed.damagedRecords == 2)
        #expect(resumed.resumedEntries == 10)
        #expect(try outputFiles(out) == reference)
    }

    @Test func resumeRedoesAnEntryWhoseOutputsWereDeletedOrChanged() async throws {
        let out = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: out) }
        _ = try await run(redSquarePipeline(), inputs, out: out)
        let reference = try outputFiles(out)
        let images = reference.keys.filter { $0.hasPrefix("images/") }.sorted()
        let json = reference.keys.filter { $0.hasPrefix("faces/") }.sorted()
        try FileManager.default.removeItem(at: out.appendingPathComponent(images[0]))
        try Data("{}".utf8).write(to: out.appendingPathComponent(json[1]))

        let resumed = try await run(redSquarePipeline(), inputs, out: out, resume: true)
        #expect(resumed.redoneEntries == 2)
        #expect(resumed.resumedEntries == 10)
        #expect(resumed.line.contains("2 entries redone (outputs missing or changed)"))
        #expect(try outputFiles(out) == reference, "the deleted image and the changed JSON are written again")
    }

    /// An entry done anew on `--resume` gets the image name it got in the
    /// first run, never the one a resumed entry's image holds: `a.jpg` keeps
    /// its name as a JPEG, so `a` (after it) writes `a.jpg.jpg`, before and after.
    @Test func anEntryDoneAnewDoesNotTakeAResumedEntrysImageName() async throws {
        let out = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: out) }
        let keepsJPEGNames = ImageOutputFormat.custom(name: "ppm-as-jpg", fileExtension: "jpg") { image in
            Array("P6\n\(image.width) \(image.height)\n255\n".utf8) + image.pixels
        }
        let pipeline = Pipeline("jpg-names", summary: "test pipeline") {
            DecodePPM()
            AsUpright()
            DetectRedSquares()
            InvertBoxes(label: "invert")
            WriteOutputs(images: keepsJPEGNames, faceJSON: true)
        }
        let items = [entry("n.tar", 0, "a.jpg", makePPM(background: 40, square: (x: 2, y: 2, side: 5))),
                     entry("n.tar", 1, "a", makePPM(background: 200, square: nil))]
        let inputs = [memoryInput("n.tar", items)]
        _ = try await run(pipeline, inputs, out: out)
        let reference = try outputFiles(out)
        #expect(reference.keys.contains("images/n.tar/a.jpg") && reference.keys.contains("images/n.tar/a.jpg.jpg"),
                "\(reference.keys.sorted())")
        try FileManager.default.removeItem(at: out.appendingPathComponent("images/n.tar/a.jpg.jpg"))

        let resumed = try await run(pipeline, inputs, out: out, resume: true)
        #expect(resumed.resumedEntries == 1)
        #expect(resumed.redoneEntries == 1)
        #expect(try outputFiles(out) == reference, "a's image overwrote a.jpg's")
    }

    @Test func resumeAfterRenamingTheArchiveNamesTheNewOne() async throws {
        let out = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: out) }
        _ = try await run(redSquarePipeline(), inputs, out: out)
        let renamed = [memoryInput("renamed.tar", sampleItems(archive: "renamed.tar", count: 12))]
        let resumed = try await run(redSquarePipeline(), renamed, out: out, resume: true)
        #expect(resumed.resumedEntries == 0, "records of a.tar do not stand for renamed.tar")
        let rows = try manifestRows(out)
        #expect(rows.count >= 12)
        #expect(rows.allSatisfy { $0[0] == "renamed.tar" })
        let output = try #require(Manifest.columns.firstIndex(of: "output"))
        #expect(rows.contains { !$0[output].isEmpty })
        #expect(rows.filter { !$0[output].isEmpty }.allSatisfy { $0[output].hasPrefix("images/renamed.tar/") })
    }

    /// A folder written by the earlier layout (a `.rec` file per record):
    /// its stage results are removed and recomputed, and `--resume` refuses
    /// its completion records with a message instead of redoing silently.
    @Test func theEarlierLayoutIsRemovedOrRefusedWithAMessage() async throws {
        let out = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: out) }
        _ = try await run(redSquarePipeline(), inputs, out: out)
        let reference = try outputFiles(out)
        let oldStage = out.appendingPathComponent(".cache/stages/ab"), oldDone = out.appendingPathComponent(".cache/done/0")
        for folder in [oldStage, oldDone] {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try Data("FPREC2".utf8).write(to: folder.appendingPathComponent("1.rec"))
        }
        do {
            _ = try await run(redSquarePipeline(), inputs, out: out, resume: true)
            Issue.record("--resume read a folder of the earlier layout")
        } catch {
            #expect("\(error)".contains("earlier facepipe"), "\(error)")
            #expect("\(error)".contains("without --resume"), "\(error)")
        }
        let rerun = try await run(redSquarePipeline(), inputs, out: out)
        #expect(!FileManager.default.fileExists(atPath: oldStage.path))
        #expect(!FileManager.default.fileExists(atPath: oldDone.path))
        #expect(rerun.cacheHits > 0, "the pack beside the old files is still used")
        #expect(try outputFiles(out) == reference)
    }

    /// Links planted under `.cache` after a first run; the rerun into the
    /// same folder must leave `elsewhere` exactly as it was. A link on the
    /// way to a folder the run uses is refused; a link at `.cache/done`,
    /// which a run without `--resume` removes, is removed itself.
    @Test(arguments: [".cache", ".cache/stages", ".cache/done"])
    func aLinkPlantedUnderTheCacheIsNeverFollowed(_ planted: String) async throws {
        for resume in [false, true] {
            let parent = try temporaryFolder()
            defer { try? FileManager.default.removeItem(at: parent) }
            let out = parent.appendingPathComponent("out"), elsewhere = parent.appendingPathComponent("elsewhere")
            _ = try await run(redSquarePipeline(), inputs, out: out)
            // elsewhere looks like a cache: a run that followed the link would remove or read it.
            let link = out.appendingPathComponent(planted)
            try FileManager.default.moveItem(at: link, to: elsewhere)
            try Data("precious".utf8).write(to: elsewhere.appendingPathComponent("keep.txt"))
            try FileManager.default.createSymbolicLink(at: link, withDestinationURL: elsewhere)
            let before = try outputFiles(elsewhere)

            if planted != ".cache/done" || resume {
                await #expect(throws: PipelineError.self) { _ = try await run(redSquarePipeline(), inputs, out: out, resume: resume) }
            } else {
                let rerun = try await run(redSquarePipeline(), inputs, out: out, resume: resume)
                #expect(rerun.resumedEntries == 0, "no record read through the link")
                #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: link.path)) == nil, "the link was replaced by a folder")
            }
            #expect(try outputFiles(elsewhere) == before, "nothing outside DIR changed (resume: \(resume))")
            #expect(FileManager.default.fileExists(atPath: elsewhere.appendingPathComponent("keep.txt").path))
        }
    }
}
