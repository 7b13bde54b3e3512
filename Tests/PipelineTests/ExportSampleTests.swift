import ArchiveIO
import Foundation
import ImageCodecs
import Pipeline
import Pipelines
import Testing
import _TestSupport

/// Runs of `faces` and `training-annotations` on the sample archive, made
/// once for all export tests; the annotated PNGs are removed (exports never
/// read them).
private enum SampleRuns {
    static let archive = Fixtures.repositoryRoot.appendingPathComponent("datasets/build/sample.tar")
    static let faces = Task { try await run("faces") }
    static let training = Task { try await run("training-annotations") }

    static func named(_ pipeline: String) async throws -> URL {
        try await (pipeline == "faces" ? faces : training).value
    }

    private static func run(_ pipeline: String) async throws -> URL {
        let out = try temporaryFolder()
        let plan = try PipelineRegistry.named(pipeline).compile(modelsDirectory: Fixtures.model(""))
        _ = try await PipelineRunner.run(plan, inputs: [.archive(path: archive.path)],
                                         configuration: RunConfiguration(outputDirectory: out, workers: 2), toolVersion: "test")
        try FileManager.default.removeItem(at: out.appendingPathComponent("images"))
        return out
    }
}

/// Exports of real runs read back the way their users read them:
/// pycocotools and the webdataset package (``ExportReaders``), and the
/// published layouts of YOLO pose, WIDER FACE, RetinaFace's label.txt and
/// iBUG .pts line by line.
@Suite(.enabled(if: Fixtures.modelsAvailable, "needs the models (make models)"),
       .enabled(if: ProcessInfo.processInfo.environment["FACEPIPE_REQUIRE_MODELS"] == "1"
                    || FileManager.default.fileExists(atPath: SampleRuns.archive.path), "needs datasets/build/sample.tar (make sample)"))
struct ExportSampleTests {
    /// The run's images (non-error entries) and kept faces per image, from the manifest.
    static func expectedImages(_ run: URL) throws -> [(entry: String, kept: Int)] {
        var images: [(entry: String, kept: Int)] = []
        var last: (String, String)?
        for row in try manifestRows(run) where row[3] != "error" {
            if last.map({ $0 != (row[0], row[2]) }) ?? true {
                images.append((row[1], 0))
                last = (row[0], row[2])
            }
            if row[3] == "ok", !row[8].isEmpty { images[images.count - 1].kept += 1 }
        }
        return images
    }

    static func export(_ pipeline: String, _ options: ExportOptions) async throws -> (run: URL, dest: URL) {
        let run = try await SampleRuns.named(pipeline)
        let dest = try temporaryFolder()
        _ = try Exporter.export(run: run, to: dest, options: options)
        return (run, dest)
    }

    @Test(.enabled(if: ExportReaders.available, "needs .venv-export (make export-venv)"),
          arguments: [("faces", KeypointSet.five), ("training-annotations", .five), ("training-annotations", .mlkit), ("training-annotations", .ibug68)])
    func cocoLoadsInPycocotoolsAndScoresItselfPerfectly(_ pipeline: String, _ keypoints: KeypointSet) async throws {
        let (run, dest) = try await Self.export(pipeline, ExportOptions(format: .coco, keypoints: keypoints))
        defer { try? FileManager.default.removeItem(at: dest) }
        let images = try Self.expectedImages(run)
        let seen = try ExportReaders.check(["coco", dest.appendingPathComponent("annotations.json").path])
        #expect(seen["images"] as? Int == images.count)
        #expect(seen["annotations"] as? Int == images.reduce(0) { $0 + $1.kept })
        #expect(seen["keypoint_names"] as? [String] == keypoints.names)
        #expect(seen["skeleton_links"] as? Int == keypoints.skeleton.count)
        #expect(seen["ap_bbox"] as? Double == 1.0)
        #expect(seen["ap_keypoints"] as? Double == 1.0)

        // Without --images, file_name is the entry inside the archive the run read.
        let coco = try JSONSerialization.jsonObject(with: Data(contentsOf: dest.appendingPathComponent("annotations.json"))) as? [String: Any]
        let first = try #require((coco?["images"] as? [[String: Any]])?.first)
        #expect(first["file_name"] as? String == SampleRuns.archive.path + "/" + images[0].entry)
    }

    @Test func ibug68IsRefusedForARunWithoutIt() async throws {
        let run = try await SampleRuns.named("faces")
        let dest = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dest) }
        #expect(throws: ExportError.self) { try Exporter.export(run: run, to: dest, options: ExportOptions(format: .coco, keypoints: .ibug68)) }
    }

    @Test(.enabled(if: ExportReaders.available, "needs .venv-export (make export-venv)"))
    func webdatasetShardsIterateInOrderWithEveryImageAndItsFaces() async throws {
        let options = ExportOptions(format: .webdataset, keypoints: .ibug68, shardSize: 10)
        let (run, dest) = try await Self.export("training-annotations", options)
        let again = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: dest); try? FileManager.default.removeItem(at: again) }
        _ = try Exporter.export(run: run, to: again, options: options)
        let images = try Self.expectedImages(run)
        let shards = (0..<((images.count + 9) / 10)).map { dest.appendingPathComponent(String(format: "shard-%06d.tar", $0)).path }
        #expect(try FileManager.default.contentsOfDirectory(atPath: dest.path).sorted() == shards.map { URL(fileURLWithPath: $0).lastPathComponent })
        for shard in shards {
            let copy = again.appendingPathComponent(URL(fileURLWithPath: shard).lastPathComponent)
            #expect(try Data(contentsOf: URL(fileURLWithPath: shard)) == Data(contentsOf: copy), "same run, same shard bytes")
        }
        let seen = try ExportReaders.check(["webdataset"] + shards)
        let samples = try #require(seen["samples"] as? [[String: Any]])
        #expect(samples.count == images.count)
        for (number, (sample, image)) in zip(samples, images).enumerated() {
            #expect(sample["key"] as? String == String(format: "%08d", number))
            #expect(sample["files"] as? [String] == ["json", "png"])
            #expect(sample["entry"] as? String == image.entry)
            #expect(sample["faces"] as? Int == image.kept)
            #expect((sample["png_bytes"] as? Int ?? 0) > 0)
        }
    }

    @Test func cleanImagesAreTheUprightOriginals() async throws {
        let (run, dest) = try await Self.export("faces", ExportOptions(format: .wider, images: true))
        defer { try? FileManager.default.removeItem(at: dest) }
        let rows = try manifestRows(run)
        // Every entry with an EXIF orientation other than 1: the written PNG is its upright pixels.
        var turned: [String: [String]] = [:]
        for row in rows where row[7] != "1" && row[3] != "error" { turned[row[1]] = row }
        #expect(turned.count >= 7, "the sample has orientations 2–8")
        let reader = try TarReader(path: SampleRuns.archive.path)
        while let item = try reader.next() {
            guard case .file(let entry) = item, let row = turned[entry.name] else { continue }
            let expected = try ImageDecoder.decode(entry.data).uprightImage()
            let written = String(row[24].dropFirst("faces/".count).dropLast(".json".count)) + ".png"
            let png = try ImageDecoder.decode(Fixtures.bytes(dest.appendingPathComponent("images/" + written)))
            #expect(png.image == expected, "\(entry.name)")
            #expect("\(png.image.width) \(png.image.height)" == "\(row[5]) \(row[6])")
        }
        let wider = try String(contentsOf: dest.appendingPathComponent("wider_face_bbx_gt.txt"), encoding: .utf8)
        #expect(wider.hasPrefix("sample.tar/" + (try Self.expectedImages(run))[0].entry + ".png\n"))
    }
}
