import Foundation
import ImageCodecs
import ImageCore
import Pipeline
import PipelineRunning
import Testing

/// `Exporter` on runs of the model-free test pipeline (red squares as faces,
/// a `corners` point group, no mesh): what it writes for a known run, and
/// what it refuses.
struct ExportTests {
    /// A red-square run of a folder `photos` of 8 PNGs, `dir/img0.png` …
    /// `dir/img7.png` but for `img6.png`, which is corrupt: squares at
    /// (i mod 12, i mod 8), side 3 + i mod 6; none in entry 4. Returns the
    /// folder that holds `photos/` and `run/`.
    static func redSquareRun(faceJSON: Bool = true) async throws -> URL {
        let root = try temporaryFolder()
        let photos = root.appendingPathComponent("photos")
        try FileManager.default.createDirectory(at: photos.appendingPathComponent("dir"), withIntermediateDirectories: true)
        for case .entry(let item) in sampleItems(archive: "photos", count: 8) {
            let name = item.name.replacingOccurrences(of: ".ppm", with: ".png")
            let header = "P6\n24 16\n255\n".utf8.count
            let png = item.data.count == header + 24 * 16 * 3
                ? try FastPNGEncoder.encode(RGBImage(width: 24, height: 16, pixels: Array(item.data.dropFirst(header))))
                : [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + item.data
            try Data(png).write(to: photos.appendingPathComponent(name))
        }
        let out = root.appendingPathComponent("run")
        let pipeline = Pipeline("red-squares", summary: "test pipeline") {
            Decode()
            Orient()
            DetectRedSquares(counter: nil)
            FilterConfidence(atLeast: 0.5)
            ForEachFace { Corners(counter: nil) }
            InvertBoxes()
            WriteOutputs(images: ppmOutput, faceJSON: faceJSON)
        }
        _ = try await PipelineRunner.run(try pipeline.compile(modelsDirectory: out), inputs: [.folder(path: photos.path, name: "photos")],
                                         configuration: RunConfiguration(outputDirectory: out, workers: 2), toolVersion: "test")
        return root
    }

    @Test func widerLinesOfAKnownRunAndEveryPathOpensFromImages() async throws {
        let root = try await Self.redSquareRun()
        let run = root.appendingPathComponent("run")
        let dest = root.appendingPathComponent("wider")
        defer { try? FileManager.default.removeItem(at: root) }
        let summary = try Exporter.export(run: run, to: dest, options: ExportOptions(format: .wider))
        #expect(summary.images == 7 && summary.faces == 6)
        // Path (the written upright PNG, relative to DEST/images/ as WIDER's
        // loaders take it), count, then x y w h and six 0 attributes; the
        // face-less entry 4 has a count of 0 and one line of zeros; the corrupt entry 6 is left out.
        let expected = """
        photos/dir/img0.png.png
        1
        0 0 3 3 0 0 0 0 0 0
        photos/dir/img1.png.png
        1
        1 1 4 4 0 0 0 0 0 0
        photos/dir/img2.png.png
        1
        2 2 5 5 0 0 0 0 0 0
        photos/dir/img3.png.png
        1
        3 3 6 6 0 0 0 0 0 0
        photos/dir/img4.png.png
        0
        0 0 0 0 0 0 0 0 0 0
        photos/dir/img5.png.png
        1
        5 5 8 8 0 0 0 0 0 0
        photos/dir/img7.png.png
        1
        7 7 4 4 0 0 0 0 0 0

        """
        let text = try String(contentsOf: dest.appendingPathComponent("wider_face_bbx_gt.txt"), encoding: .utf8)
        #expect(text == expected)
        for line in text.split(separator: "\n") where line.hasSuffix(".png") {
            let png = try ImageDecoder.decode(Array(Data(contentsOf: dest.appendingPathComponent("images/" + line))))
            #expect(png.image.width == 24 && png.image.height == 16, "\(line)")
        }
    }

    /// `--reference-originals` points at each PNG from DEST (`../photos/dir/img0.png`), writes no images.
    @Test func referencedOriginalsAreRelativeToTheExportFile() async throws {
        let root = try await Self.redSquareRun()
        defer { try? FileManager.default.removeItem(at: root) }
        let dest = root.appendingPathComponent("exports/wider")
        _ = try Exporter.export(run: root.appendingPathComponent("run"), to: dest, options: ExportOptions(format: .wider, referenceOriginals: true))
        let text = try String(contentsOf: dest.appendingPathComponent("wider_face_bbx_gt.txt"), encoding: .utf8)
        let paths = text.split(separator: "\n").filter { $0.hasSuffix(".png") }.map(String.init)
        #expect(paths == [0, 1, 2, 3, 4, 5, 7].map { "../../photos/dir/img\($0).png" })
        for path in paths {
            #expect(FileManager.default.fileExists(atPath: dest.appendingPathComponent(path).path), "\(path)")
        }
        #expect(!FileManager.default.fileExists(atPath: dest.appendingPathComponent("images").path))
    }

    /// A run of a stream (here an in-memory input, no path): its images
    /// cannot be read again, so the export is refused before DEST is created.
    @Test func aRunOfAStreamIsRefusedBeforeAnythingIsWritten() async throws {
        let root = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let run = root.appendingPathComponent("run")
        _ = try await PipelineRunner.run(try redSquarePipeline().compile(modelsDirectory: root), inputs: [memoryInput("mem", sampleItems(archive: "mem", count: 3))],
                                         configuration: RunConfiguration(outputDirectory: run, workers: 1), toolVersion: "test")
        let dest = root.appendingPathComponent("dest")
        let error = try #require(throws: ExportError.self) {
            try Exporter.export(run: run, to: dest, options: ExportOptions(format: .wider))
        }
        #expect(error.description.hasPrefix("cannot re-read the run's input mem: the run read it from standard input"), "\(error)")
        #expect(!FileManager.default.fileExists(atPath: dest.path))
    }

    @Test(arguments: [ExportFormat.yolo, .webdataset])
    func referencingOriginalsIsRefusedWhereLoadersNeedTheImages(_ format: ExportFormat) async throws {
        let root = try await Self.redSquareRun()
        defer { try? FileManager.default.removeItem(at: root) }
        let dest = root.appendingPathComponent("dest")
        #expect(throws: ExportError.originalsNeedImages(format: format.rawValue)) {
            try Exporter.export(run: root.appendingPathComponent("run"), to: dest, options: ExportOptions(format: format, referenceOriginals: true))
        }
        #expect(!FileManager.default.fileExists(atPath: dest.path))
    }

    @Test(arguments: [(ExportFormat.coco, KeypointSet.five), (.coco, .mlkit), (.coco, .ibug68), (.retinaface, .five), (.pts, .five)])
    func refusesPointsTheRunLacks(_ format: ExportFormat, _ keypoints: KeypointSet) async throws {
        let root = try await Self.redSquareRun()
        let run = root.appendingPathComponent("run")
        let dest = root.appendingPathComponent("export")
        defer { try? FileManager.default.removeItem(at: root) }
        let error = try #require(throws: ExportError.self) {
            try Exporter.export(run: run, to: dest, options: ExportOptions(format: format, keypoints: keypoints))
        }
        guard case .missingPoints(let set, let entry, _) = error else {
            Issue.record("expected missingPoints, got \(error)")
            return
        }
        #expect(set == (format == .pts ? "ibug68" : format == .retinaface ? "5" : keypoints.rawValue))
        #expect(entry == "photos/dir/img0.png face 0")
        #expect(!FileManager.default.fileExists(atPath: dest.path), "nothing is written before the check")
    }

    @Test func refusesARunWithoutPerImageJSON() async throws {
        let root = try await Self.redSquareRun(faceJSON: false)
        let run = root.appendingPathComponent("run")
        let dest = root.appendingPathComponent("dest")
        defer { try? FileManager.default.removeItem(at: root) }
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
        guard case .unreadableRun(let file, let reason) = error else { Issue.record("\(error)"); return }
        // The path as the folder was given, and the OS's reason.
        #expect(file == folder.path + "/run.json")
        #expect(reason == "No such file or directory")
    }
}
