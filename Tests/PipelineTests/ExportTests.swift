import Foundation
import Pipeline
import Testing

/// `Exporter` on runs of the model-free test pipeline (red squares as faces,
/// a `corners` point group, no mesh): what it writes for a known run, and
/// what it refuses.
struct ExportTests {
    /// A red-square run of 8 entries: squares at (i mod 12, i mod 8), side 3 + i mod 6; none in entry 4; entry 6 corrupt.
    static func redSquareRun(faceJSON: Bool = true) async throws -> URL {
        let out = try temporaryFolder()
        let pipeline = Pipeline("red-squares", summary: "test pipeline") {
            DecodePPM()
            AsUpright()
            DetectRedSquares(counter: nil)
            FilterConfidence(atLeast: 0.5)
            ForEachFace { Corners(counter: nil) }
            InvertBoxes()
            WriteOutputs(images: ppmOutput, faceJSON: faceJSON)
        }
        _ = try await PipelineRunner.run(try pipeline.compile(modelsDirectory: out), inputs: [memoryInput("mem", sampleItems(archive: "mem", count: 8))],
                                         configuration: RunConfiguration(outputDirectory: out, workers: 2), toolVersion: "test")
        return out
    }

    @Test func widerLinesOfAKnownRun() async throws {
        let run = try await Self.redSquareRun()
        let dest = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: run); try? FileManager.default.removeItem(at: dest) }
        let summary = try Exporter.export(run: run, to: dest, options: ExportOptions(format: .wider))
        #expect(summary.images == 7 && summary.faces == 6)
        // Path (in-memory input: archive/entry), count, then x y w h and six 0 attributes; the
        // face-less entry 4 has a count of 0 and one line of zeros; the corrupt entry 6 is left out.
        let expected = """
        mem/dir/img0.ppm
        1
        0 0 3 3 0 0 0 0 0 0
        mem/dir/img1.ppm
        1
        1 1 4 4 0 0 0 0 0 0
        mem/dir/img2.ppm
        1
        2 2 5 5 0 0 0 0 0 0
        mem/dir/img3.ppm
        1
        3 3 6 6 0 0 0 0 0 0
        mem/dir/img4.ppm
        0
        0 0 0 0 0 0 0 0 0 0
        mem/dir/img5.ppm
        1
        5 5 8 8 0 0 0 0 0 0
        mem/dir/img7.ppm
        1
        7 7 4 4 0 0 0 0 0 0

        """
        let text = try String(contentsOf: dest.appendingPathComponent("wider_face_bbx_gt.txt"), encoding: .utf8)
        #expect(text == expected)
    }

    @Test(arguments: [(ExportFormat.coco, KeypointSet.five), (.coco, .mlkit), (.coco, .ibug68), (.retinaface, .five), (.pts, .five)])
    func refusesPointsTheRunLacks(_ format: ExportFormat, _ keypoints: KeypointSet) async throws {
        let run = try await Self.redSquareRun()
        let dest = try temporaryFolder().appendingPathComponent("export")
        defer { try? FileManager.default.removeItem(at: run); try? FileManager.default.removeItem(at: dest.deletingLastPathComponent()) }
        let error = try #require(throws: ExportError.self) {
            try Exporter.export(run: run, to: dest, options: ExportOptions(format: format, keypoints: keypoints))
        }
        guard case .missingPoints(let set, let entry, _) = error else {
            Issue.record("expected missingPoints, got \(error)")
            return
        }
        #expect(set == (format == .pts ? "ibug68" : format == .retinaface ? "5" : keypoints.rawValue))
        #expect(entry == "mem/dir/img0.ppm face 0")
        #expect(!FileManager.default.fileExists(atPath: dest.path), "nothing is written before the check")
    }

    @Test func refusesARunWithoutPerImageJSON() async throws {
        let run = try await Self.redSquareRun(faceJSON: false)
        let dest = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: run); try? FileManager.default.removeItem(at: dest) }
        let error = try #require(throws: ExportError.self) {
            try Exporter.export(run: run, to: dest, options: ExportOptions(format: .wider))
        }
        #expect(error.description.contains("has no per-image JSON"), "\(error)")
    }

    @Test func refusesAFolderThatIsNotARun() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let error = try #require(throws: ExportError.self) {
            try Exporter.export(run: folder, to: folder.appendingPathComponent("x"), options: ExportOptions(format: .coco))
        }
        guard case .unreadableRun(let file, _) = error else { Issue.record("\(error)"); return }
        #expect(file == "run.json")
    }
}
