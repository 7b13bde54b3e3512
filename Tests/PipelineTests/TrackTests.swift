import Foundation
import Pipeline
import PipelineRunning
import RunFolders
import Synchronization
import Testing

@Suite struct TrackTests {
    static let pipeline = Pipeline("tracked") {
        DecodePPM()
        AsUpright()
        DetectRedSquares()
        Track()
        InvertBoxes()
        WriteOutputs(images: ppmOutput, faceJSON: true)
    }

    /// A square drifting right, then jumping far away, then a frame without it.
    static let items: [SourceItem] = [
        makePPM(width: 40, height: 20, square: (x: 2, y: 4, side: 8)),
        makePPM(width: 40, height: 20, square: (x: 3, y: 4, side: 8)),
        makePPM(width: 40, height: 20, square: (x: 4, y: 5, side: 8)),
        makePPM(width: 40, height: 20, square: (x: 30, y: 10, side: 8)),
        makePPM(width: 40, height: 20, square: nil),
    ].enumerated().map { entry("seq.tar", $0.offset, "f\($0.offset).ppm", $0.element) }

    @Test func idsFollowAFaceInArchiveOrder() async throws {
        var reference: [String: Data]?
        for workers in [1, 4] {
            let out = try temporaryFolder()
            defer { try? FileManager.default.removeItem(at: out) }
            _ = try await run(Self.pipeline, [memoryInput("seq.tar", Self.items)], out: out, workers: workers)
            let ids = try manifestRows(out).map { $0[Manifest.columns.firstIndex(of: "tracking_id")!] }
            #expect(ids == ["1", "1", "1", "2", ""])
            let files = try outputFiles(out)
            if let reference { #expect(files == reference) } else { reference = files }
        }
    }

    @Test func resumeReplaysTracking() async throws {
        let reference = try temporaryFolder(), out = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: reference); try? FileManager.default.removeItem(at: out) }
        _ = try await run(Self.pipeline, [memoryInput("seq.tar", Self.items)], out: reference)
        let written = Atomic<Int>(0)
        _ = try await run(Self.pipeline, [memoryInput("seq.tar", Self.items)], out: out, workers: 1, hooks: RunHooks(
            shouldStop: { written.load(ordering: .relaxed) >= 2 }, progress: { written.store($0.done, ordering: .relaxed) }))
        _ = try await run(Self.pipeline, [memoryInput("seq.tar", Self.items)], out: out, resume: true)
        #expect(try outputFiles(out) == outputFiles(reference))
    }
}
