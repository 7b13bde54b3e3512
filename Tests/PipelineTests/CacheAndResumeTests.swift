import Foundation
import Pipeline
import PipelineRunning
import Synchronization
import Testing

@Suite struct CacheAndResumeTests {
    let inputs = [memoryInput("a.tar", sampleItems(archive: "a.tar", count: 12))]

    @Test func aRerunReusesCachedResultsAndGivesTheSameBytes() async throws {
        let out = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: out) }
        let counter = CallCounter()
        let first = try await run(redSquarePipeline(counter: counter), inputs, out: out)
        let firstFiles = try outputFiles(out)
        let detections = counter.count("detect-red")
        #expect(detections == 11, "12 entries, 1 corrupt")
        #expect(first.cacheHits == 0)
        let second = try await run(redSquarePipeline(counter: counter), inputs, out: out)
        #expect(counter.count("detect-red") == detections, "detection served from the cache")
        #expect(second.cacheHits > 0)
        #expect(try outputFiles(out) == firstFiles)
    }

    @Test func aChangedDrawingStyleRedrawsWithoutDetecting() async throws {
        let out = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: out) }
        let counter = CallCounter()
        _ = try await run(redSquarePipeline(counter: counter), inputs, out: out)
        let before = counter.count("detect-red")
        let cornersBefore = counter.count("corners")
        // Another pipeline fingerprint: --resume continues into the folder with its cache.
        _ = try await run(redSquarePipeline(counter: counter, label: "other style"), inputs, out: out, resume: true)
        #expect(counter.count("detect-red") == before)
        #expect(counter.count("corners") == cornersBefore)
    }

    @Test func fromRecomputesTheStageAndLaterOnes() async throws {
        let out = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: out) }
        let counter = CallCounter()
        _ = try await run(redSquarePipeline(counter: counter), inputs, out: out)
        let detections = counter.count("detect-red"), corners = counter.count("corners")
        _ = try await run(redSquarePipeline(counter: counter), inputs, out: out, recompute: .from("corners"))
        #expect(counter.count("detect-red") == detections, "upstream from the cache")
        #expect(counter.count("corners") == 2 * corners, "the named stage (inside for-each-face) recomputed")
        _ = try await run(redSquarePipeline(counter: counter), inputs, out: out, recompute: .only("detect-red"))
        #expect(counter.count("detect-red") == 2 * detections)
        #expect(counter.count("corners") == 2 * corners, "--only leaves later cached stages alone")
    }

    @Test func unknownStagesAreRefused() async throws {
        let out = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: out) }
        await #expect(throws: PipelineError.self) {
            _ = try await run(redSquarePipeline(), inputs, out: out, recompute: .from("nope"))
        }
        await #expect(throws: PipelineError.self) {
            _ = try await run(redSquarePipeline(), inputs, out: out, recompute: .only("nope"))
        }
    }

    @Test func onlyAnnotateRedrawsFromCachedResults() async throws {
        let out = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: out) }
        let counter = CallCounter()
        func annotated() -> Pipeline {
            Pipeline("red-squares-annotated") {
                DecodePPM()
                AsUpright()
                DetectRedSquares(counter: counter)
                FilterConfidence(atLeast: 0.5)
                ForEachFace { Corners(counter: counter) }
                Annotate()
                WriteOutputs(images: ppmOutput, faceJSON: true)
            }
        }
        _ = try await run(annotated(), inputs, out: out)
        let files = try outputFiles(out)
        let detections = counter.count("detect-red"), corners = counter.count("corners")
        let redrawn = try await run(annotated(), inputs, out: out, recompute: .only("annotate"))
        #expect(counter.count("detect-red") == detections, "no detection")
        #expect(counter.count("corners") == corners, "no per-face stage")
        #expect(redrawn.cacheHits > 0)
        #expect(try outputFiles(out) == files)
    }

    @Test(arguments: [1, 4, 9])
    func resumeAfterAnInterruptionGivesTheFullOutput(stopAfter: Int) async throws {
        let reference = try temporaryFolder(), out = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: reference); try? FileManager.default.removeItem(at: out) }
        let twoArchives = inputs + [memoryInput("b.tar", sampleItems(archive: "b.tar", count: 5))]
        _ = try await run(redSquarePipeline(), twoArchives, out: reference)

        let written = Atomic<Int>(0)
        let counter = CallCounter()
        let interrupted = try await run(redSquarePipeline(counter: counter), twoArchives, out: out, hooks: RunHooks(
            shouldStop: { written.load(ordering: .relaxed) >= stopAfter },
            progress: { written.store($0.done, ordering: .relaxed) }))
        #expect(interrupted.interrupted)
        let partialRows = try manifestRows(out)
        #expect(partialRows.count >= stopAfter && partialRows.count < 19, "a prefix, flushed")
        // A kill -9 may leave a half-written manifest line: resume rewrites it.
        let handle = try FileHandle(forWritingTo: out.appendingPathComponent("manifest.csv"))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data("a.tar,half".utf8))
        try handle.close()

        let resumedCounter = CallCounter()
        let resumed = try await run(redSquarePipeline(counter: resumedCounter), twoArchives, out: out, resume: true)
        #expect(!resumed.interrupted)
        #expect(resumed.resumedEntries >= stopAfter)
        #expect(try outputFiles(out) == outputFiles(reference), "no duplicate or missing rows or files")
    }

    @Test func compileChecksModelsAndOptions() throws {
        let models = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: models) }
        let needsModel = Pipeline("needs-model") {
            DecodePPM()
            AsUpright()
            DetectFaces(.fast)
            Annotate()
            WriteOutputs()
        }
        #expect(throws: PipelineError.modelMissing(file: "face_detection_short_range.tflite", directory: models.path)) {
            _ = try needsModel.compile(modelsDirectory: models)
        }
        try Data("not a model".utf8).write(to: models.appendingPathComponent("face_detection_short_range.tflite"))
        do {
            _ = try needsModel.compile(modelsDirectory: models)
            Issue.record("a wrong hash must be refused")
        } catch {
            guard case .modelHashMismatch(let file, _, _) = error else { Issue.record("\(error)"); return }
            #expect(file == "face_detection_short_range.tflite")
        }
        let badOption = Pipeline("bad") {
            DecodePPM()
            AsUpright()
            DetectRedSquares(minimumSide: 0)
            InvertBoxes()
            WriteOutputs(images: .none)
        }
        #expect(throws: PipelineError.invalidOption(stage: "detect-red", option: "minimum-side", reason: "must be at least 1, got 0")) {
            _ = try badOption.compile(modelsDirectory: models)
        }
        #expect(throws: PipelineError.self) {
            _ = try Pipeline("c") { Decode(); Orient(); DetectFaces(.fast); FilterConfidence(atLeast: 1.5); Annotate(); WriteOutputs() }
                .compile(modelsDirectory: models)
        }
    }

    @Test func fingerprintsChainAndChangeWithOptions() throws {
        let models = URL(fileURLWithPath: "/nonexistent")
        let a = try redSquarePipeline().compile(modelsDirectory: models)
        let b = try redSquarePipeline(label: "x").compile(modelsDirectory: models)
        let c = try redSquarePipeline(minConfidence: 0.9).compile(modelsDirectory: models)
        #expect(a.steps.map(\.fingerprint) == (try redSquarePipeline().compile(modelsDirectory: models)).steps.map(\.fingerprint))
        #expect(a.steps[2].fingerprint == b.steps[2].fingerprint, "detection unaffected by a later option")
        #expect(a.fingerprint != b.fingerprint)
        #expect(a.steps[2].fingerprint == c.steps[2].fingerprint)
        #expect(a.steps[3].fingerprint != c.steps[3].fingerprint)
        #expect(a.steps[4].fingerprint != c.steps[4].fingerprint, "downstream of a change changes")
    }
}
