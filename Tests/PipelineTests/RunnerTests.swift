import ArchiveIO
import Foundation
import Pipeline
import PipelineRunning
import RunFolders
import Synchronization
import Testing

@Suite struct RunnerTests {
    @Test func outputsAreByteIdenticalForAnyWorkerCount() async throws {
        let inputs = [memoryInput("a.tar", sampleItems(archive: "a.tar", count: 23)),
                      memoryInput("b.tar", sampleItems(archive: "b.tar", count: 9))]
        var reference: [String: Data]?
        for workers in [1, 2, 4] {
            let out = try temporaryFolder()
            defer { try? FileManager.default.removeItem(at: out) }
            _ = try await run(redSquarePipeline(), inputs, out: out, workers: workers)
            let files = try outputFiles(out)
            #expect(files.count > 30)
            if let reference {
                #expect(files == reference, "workers=\(workers) differs")
            } else {
                reference = files
            }
        }
    }

    @Test func manifestHasARowPerFaceNoFaceAndError() async throws {
        let out = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: out) }
        let summary = try await run(redSquarePipeline(), [memoryInput("a.tar", sampleItems(archive: "a.tar", count: 14))], out: out)
        let lines = try manifestLines(out)
        #expect(lines.first == Manifest.columns.joined(separator: ","))
        #expect(lines.count == 15)
        let rows = try manifestRows(out)
        #expect(rows.map { $0[2] } == (0..<14).map(String.init), "archive order")
        #expect(rows[4][3] == "no_face")
        #expect(rows[6][3] == "error")
        #expect(rows[6][4].hasPrefix("decode-ppm: truncated"))
        #expect(rows[0][3] == "ok")
        #expect(rows[0][Manifest.columns.firstIndex(of: "roll")!] == "1.25")
        #expect(rows[0][Manifest.columns.firstIndex(of: "yaw")!] == "0.00", "negative zero printed as 0")
        #expect(rows[0][Manifest.columns.firstIndex(of: "output")!] == "images/a.tar/dir/img0.ppm.ppm")
        #expect(summary.failedEntries == 2)
        #expect(summary.exitStatus == .someEntriesFailed)
        #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent("faces/a.tar/dir/img0.ppm.json").path))
        #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent("run.json").path))
    }

    @Test func aFailingArchiveGetsARowAndTheNextArchiveRuns() async throws {
        struct Truncated: Error, CustomStringConvertible { var description: String { "truncated tar" } }
        let out = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: out) }
        let items = sampleItems(archive: "bad.tar", count: 3) + [.skipped(index: 3, name: "link", reason: "symbolic link")]
        let summary = try await run(redSquarePipeline(), [
            memoryInput("bad.tar", items, failingWith: Truncated()),
            RunInput(name: "missing.tar", path: nil) { throw Truncated() },
            memoryInput("good.tar", sampleItems(archive: "good.tar", count: 2)),
        ], out: out)
        let rows = try manifestRows(out)
        #expect(rows.count == 7, "3 entries, 2 archive errors, 2 entries")
        let archiveError: [String] = rows[3]
        #expect(archiveError[0] == "bad.tar")
        #expect(archiveError[3] == "error")
        #expect(archiveError[4].contains("truncated tar"))
        let missing: [String] = rows[4]
        #expect(missing[0] == "missing.tar")
        #expect(missing[3] == "error")
        #expect(rows[5][0] == "good.tar")
        let expected = [RunSummary.SkippedRecord(archive: "bad.tar", index: 3, name: "link", reason: "symbolic link")]
        #expect(summary.skipped.first == expected && summary.skipped.count == 1)
        #expect(summary.failedArchives == 2)
        #expect(summary.exitStatus == .someEntriesFailed)
    }

    @Test func hostileNamesStayInsideTheOutputFolder() async throws {
        let parent = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: parent) }
        let out = parent.appendingPathComponent("out")
        let image = makePPM(square: (x: 1, y: 1, side: 4))
        let names = ["../escape.ppm", "/abs.ppm", "a/../../b.ppm", "dup.ppm", "dup.ppm", "x,\"quoted\".ppm", ".."]
        let items = names.enumerated().map { entry("evil.tar", $0.offset, $0.element, image) }
        let summary = try await run(redSquarePipeline(), [memoryInput("../evil.tar", items)], out: out)
        #expect(summary.failedEntries == 0)
        let outside = try FileManager.default.contentsOfDirectory(atPath: parent.path)
        #expect(outside == ["out"], "nothing written next to the output folder")
        let files = try outputFiles(out).keys.filter { $0.hasPrefix("images/") }
        #expect(files.count == names.count, "duplicates kept apart: \(files.sorted())")
        for file in files { #expect(!file.split(separator: "/").contains("..")) }
        let manifest = try String(contentsOf: out.appendingPathComponent("manifest.csv"), encoding: .utf8)
        #expect(manifest.contains("\"x,\"\"quoted\"\".ppm\""), "RFC 4180 quoting")
    }

    @Test func anOutputFolderThatIsAFileIsRefused() async throws {
        let parent = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: parent) }
        let file = parent.appendingPathComponent("taken")
        try Data("x".utf8).write(to: file)
        await #expect(throws: PipelineError.outputUnusable(path: file.path, reason: "exists and is not a folder")) {
            _ = try await run(redSquarePipeline(), [], out: file)
        }
    }

    @Test func aNegativeByteBoundIsRefusedBeforeAnythingIsWritten() async throws {
        let out = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: out) }
        let plan = try redSquarePipeline().compile(modelsDirectory: out)
        var configuration = RunConfiguration(outputDirectory: out.appendingPathComponent("never"), workers: 2)
        configuration.reorderBytes = -1
        await #expect(throws: PipelineError.invalidRunConfiguration("reorder bytes -1 must not be negative")) {
            _ = try await PipelineRunner.run(plan, inputs: [memoryInput("a.tar", sampleItems(archive: "a.tar", count: 2))],
                                             configuration: configuration, toolVersion: "test")
        }
        #expect(!FileManager.default.fileExists(atPath: out.appendingPathComponent("never").path))
    }

    /// A stage's input frame is moved to it, not copied: a stage that takes
    /// the pixels out of its frame (as `Annotate` does) writes on them in
    /// place. Failed when the runner passed its own copy (every annotated
    /// picture was copied whole on its first mark).
    @Test func aStageWritesOnThePixelsInPlace() async throws {
        let out = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: out) }
        let witness = InPlaceWitness()
        let pipeline = Pipeline("in-place") {
            DecodePPM()
            AsUpright()
            DetectRedSquares()
            WritesInPlace(witness: witness)
            WriteOutputs(images: .none, faceJSON: false)
        }
        _ = try await run(pipeline, [memoryInput("a.tar", sampleItems(archive: "a.tar", count: 6))], out: out, workers: 2)
        #expect(witness.writes == 6)
        #expect(witness.copies == 0, "\(witness.copies) of 6 pictures were copied on the first write")
    }

    @Test func inFlightEntriesNeverExceedTheWorkerCount() async throws {
        let out = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: out) }
        let gauge = ConcurrencyGauge()
        let pipeline = Pipeline("gauge") {
            Gauged(gauge: gauge)
            AsUpright()
            DetectRedSquares()
            InvertBoxes()
            WriteOutputs(images: .none, faceJSON: false)
        }
        _ = try await run(pipeline, [memoryInput("a.tar", sampleItems(archive: "a.tar", count: 40))], out: out, workers: 3)
        #expect(gauge.peak <= 3)
        #expect(gauge.peak >= 1)
    }
}

/// Counts a stage's writes on pictures and how many of them moved the pixels (a copy).
final class InPlaceWitness: Sendable {
    private let state = Mutex((writes: 0, copies: 0))
    func record(copied: Bool) { state.withLock { $0.writes += 1; if copied { $0.copies += 1 } } }
    var writes: Int { state.withLock { $0.writes } }
    var copies: Int { state.withLock { $0.copies } }
}

/// Paints the first pixel black the way `Annotate` draws: the pixels taken out of the frame, the frame ended.
struct WritesInPlace: Stage {
    let witness: InPlaceWitness
    var definition: StageDefinition { StageDefinition("writes-in-place") }
    func process(_ frame: consuming Frame<Phase.Detected>, context: StageContext) throws -> Frame<Phase.Annotated> {
        var image = frame.image
        let record = frame.record, encoded = frame.encoded
        _ = consume frame
        let before = image.pixels.withUnsafeBufferPointer { $0.baseAddress }
        image.pixels[0] = 0
        let after = image.pixels.withUnsafeBufferPointer { $0.baseAddress }
        witness.record(copied: before != after)
        return Frame<Phase.Annotated>(image: image, record: record, encoded: encoded)
    }
}

/// Tracks how many entries are inside a stage at once.
final class ConcurrencyGauge: Sendable {
    private let state = Mutex((current: 0, peak: 0))
    func enter() { state.withLock { $0.current += 1; $0.peak = max($0.peak, $0.current) } }
    func leave() { state.withLock { $0.current -= 1 } }
    var peak: Int { state.withLock { $0.peak } }
}

struct Gauged: Stage {
    let gauge: ConcurrencyGauge
    var definition: StageDefinition { StageDefinition("gauged-decode") }
    func process(_ frame: Frame<Phase.Encoded>, context: StageContext) throws -> Frame<Phase.Decoded> {
        gauge.enter()
        defer { gauge.leave() }
        usleep(200)
        return try DecodePPM().process(frame, context: context)
    }
}

@Suite struct OutputTarTests {
    @Test func anOutputTarHoldsTheSameFilesAsTheFolder() async throws {
        let folder = try temporaryFolder(), tarred = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder); try? FileManager.default.removeItem(at: tarred) }
        let inputs = [memoryInput("a.tar", sampleItems(archive: "a.tar", count: 9))]
        _ = try await run(redSquarePipeline(), inputs, out: folder)
        let plan = try redSquarePipeline().compile(modelsDirectory: folder)
        _ = try await PipelineRunner.run(plan, inputs: inputs,
                                         configuration: RunConfiguration(outputDirectory: tarred, workers: 2, outputTar: true),
                                         toolVersion: "test")
        var inTar: [String: Data] = [:]
        let reader = try TarReader(path: tarred.appendingPathComponent("outputs/000000.tar").path)
        while let item = try reader.next() {
            if case .file(let entry) = item { inTar[entry.name] = Data(entry.data) }
        }
        var expected = try outputFiles(folder)
        expected["manifest.csv"] = nil
        expected["report.html"] = nil
        expected["skipped.csv"] = nil
        #expect(inTar == expected)
        #expect(try manifestRows(tarred) == manifestRows(folder))
    }
}

/// A per-worker resource that counts how often one is made.
struct CountedResource: WorkerResource {
    static let made = CallCounter()
    let serial: Int
    init(shared: SharedResources) {
        Self.made.hit("resource")
        serial = Self.made.count("resource")
    }
}

/// A stage that takes a per-worker resource and checks it is the same one on every use.
struct UsesWorkerResource: Stage {
    var definition: StageDefinition { StageDefinition("uses-worker-resource") }
    func process(_ frame: Frame<Phase.Upright>, context: StageContext) throws -> Frame<Phase.Upright> {
        let first = try context.resource(CountedResource.self)
        let again = try context.resource(CountedResource.self)
        guard first.serial == again.serial else { throw StageContextMismatch() }
        return frame
    }
    struct StageContextMismatch: Error {}
}

@Test func perWorkerResourcesAreMadeOncePerWorker() async throws {
    let out = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: out) }
    let before = CountedResource.made.count("resource")
    let pipeline = Pipeline("resources") {
        DecodePPM()
        AsUpright()
        UsesWorkerResource()
        PassPixels()
        WriteOutputs(images: .none, faceJSON: false)
    }
    _ = try await run(pipeline, [memoryInput("a.tar", sampleItems(archive: "a.tar", count: 30))], out: out, workers: 3)
    let made = CountedResource.made.count("resource") - before
    #expect((1...3).contains(made), "made \(made) times for 3 workers")
}

struct FailsAfterDecoding: Stage {
    struct Refused: Error, CustomStringConvertible { var description: String { "refused on purpose" } }
    var definition: StageDefinition { StageDefinition("fails") }
    func process(_ frame: Frame<Phase.Upright>, context: StageContext) throws -> Frame<Phase.Upright> { throw Refused() }
}

@Test func anErrorRowKeepsWhatEarlierStagesFound() async throws {
    let out = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: out) }
    let pipeline = Pipeline("fails") {
        DecodePPM()
        AsUpright()
        FailsAfterDecoding()
        PassPixels()
        WriteOutputs(images: .none, faceJSON: false)
    }
    let summary = try await run(pipeline, [memoryInput("a.tar", [entry("a.tar", 0, "x.ppm", makePPM(square: nil))])], out: out)
    let row = try #require(try manifestRows(out).first)
    #expect(row[3] == "error")
    #expect(row[4] == "fails: refused on purpose")
    #expect(row[5] == "24" && row[6] == "16" && row[7] == "1")
    #expect(row.count == Manifest.columns.count)
    #expect(summary.exitStatus == .someEntriesFailed)
}
