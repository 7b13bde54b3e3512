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

@Suite(.enabled(if: Fixtures.modelsAvailable, "run `make models` first"))
struct RedactAndCropsTests {
    /// A red square "face", 44 px wide (face-crops keeps faces from 40 px), on a grey picture.
    static func picture(_ i: Int) -> RGBImage {
        var image = RGBImage(width: 96, height: 64, fill: (90, UInt8(60 + i), 120))
        for y in (10 + i)..<(54 + i) { for x in (30 + i)..<(74 + i) {
            let p = (y * 96 + x) * 3
            image.pixels[p] = 255; image.pixels[p + 1] = 0; image.pixels[p + 2] = 0
        } }
        return image
    }

    /// `a.jpg` (EXIF orientation 6 and a GPS-like maker string in its APP1), `b.png`, `c.JPEG`.
    static func archive(in folder: URL, name: String = "shard.tar") throws -> String {
        let path = folder.appendingPathComponent(name).path
        let writer = try TarWriter(path: path)
        func jpeg(_ image: RGBImage) throws -> [UInt8] {
            try TurboJPEGCompressor().compress(image.pixels, width: image.width, height: image.height, input: .rgb, quality: 95)
        }
        var tiff: [UInt8] = [0x49, 0x49, 42, 0, 8, 0, 0, 0, 2, 0]
        tiff += [0x12, 0x01, 3, 0, 1, 0, 0, 0, 6, 0, 0, 0]             // Orientation SHORT 6
        tiff += [0x0F, 0x01, 2, 0, 12, 0, 0, 0, 38, 0, 0, 0, 0, 0, 0, 0] // Make ASCII, offset 38
        tiff += Array("GPS-SECRET\0\0".utf8)
        let app1 = Array("Exif".utf8) + [0, 0] + tiff
        let withExif = [0xFF, 0xD8, 0xFF, 0xE1, UInt8((app1.count + 2) >> 8), UInt8((app1.count + 2) & 0xFF)] + app1
            + (try jpeg(picture(0))).dropFirst(2)
        try writer.add(path: "a.jpg", data: withExif)
        try writer.add(path: "b.png", data: try PNGEncoder.encode(picture(1)))
        try writer.add(path: "c.JPEG", data: try jpeg(picture(2)))
        try writer.finish()
        return path
    }

    static func configuration(_ out: URL, workers: Int, counter: CallCounter,
                              recompute: RecomputePolicy = .useCache) -> RunConfiguration {
        RunConfiguration(outputDirectory: out, workers: workers, recompute: recompute,
                         faceEngine: FaceEngineFactory { _ in RedSquareFaceEngine(made: counter) })
    }

    /// The markers of a JPEG before its first scan.
    static func markersBeforeScan(_ jpeg: [UInt8]) -> [UInt8] {
        var markers: [UInt8] = [], i = 2
        while i + 4 <= jpeg.count, jpeg[i] == 0xFF {
            let marker = jpeg[i + 1]
            markers.append(marker)
            if marker == 0xDA { break }
            i += 2 + Int(jpeg[i + 2]) << 8 + Int(jpeg[i + 3])
        }
        return markers
    }

    static func column(_ name: String) -> Int { Manifest.columns.firstIndex(of: name)! }

    @Test func anonymizeWritesMetadataFreeJPEGsUnderTheEntryNames() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let plan = try Pipelines.anonymize.compile(modelsDirectory: Fixtures.model(""))
        let input = try Self.archive(in: folder)
        var outputs: [[String: Data]] = []
        for workers in [1, 3] {
            let out = folder.appendingPathComponent("out\(workers)")
            let summary = try await PipelineRunner.run(plan, inputs: [.archive(path: input)],
                                                       configuration: Self.configuration(out, workers: workers, counter: CallCounter()),
                                                       toolVersion: "test")
            #expect(summary.failedEntries == 0 && summary.faces == 3)
            outputs.append(try outputFiles(out))
        }
        #expect(outputs[0] == outputs[1], "byte-identical for 1 and 3 workers")
        let files = outputs[0]
        #expect(Set(files.keys.filter { $0.hasPrefix("images/") })
                == ["images/shard.tar/a.jpg", "images/shard.tar/b.png.jpg", "images/shard.tar/c.JPEG"])
        let rows = try manifestRows(folder.appendingPathComponent("out1"))
        #expect(rows.map { $0[Self.column("output")] } == ["images/shard.tar/a.jpg", "images/shard.tar/b.png.jpg", "images/shard.tar/c.JPEG"])

        let redacted = [UInt8](try #require(files["images/shard.tar/a.jpg"]))
        #expect(Self.markersBeforeScan(redacted).allSatisfy { [0xE0, 0xDB, 0xC0, 0xC4, 0xDA].contains($0) },
                "only JFIF, tables, frame and scan: \(Self.markersBeforeScan(redacted).map { String($0, radix: 16) })")
        #expect(redacted.firstRange(of: Array("GPS-SECRET".utf8)) == nil)
        #expect(redacted.firstRange(of: Array("Exif".utf8)) == nil)
        let decoded = try ImageDecoder.decode(redacted)
        #expect(decoded.orientation == .topLeft)
        #expect(decoded.image.width == 64 && decoded.image.height == 96, "written upright (orientation 6 turned)")

        let json = try #require(files["faces/shard.tar/a.jpg.json"])
        let document = try #require(try JSONSerialization.jsonObject(with: json) as? [String: Any])
        let face = try #require((document["faces"] as? [[String: Any]])?.first)
        let region = try #require(face["redaction_px"] as? [Double])
        let box = try #require(face["box_px"] as? [Double])
        #expect(region.count == 4 && region[0] < box[0] && region[2] > box[2] * 1.4, "the box grown by the margin")
    }

    @Test func eachArchiveKeepsItsEntryNames() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let out = folder.appendingPathComponent("out")
        let plan = try Pipelines.anonymize.compile(modelsDirectory: Fixtures.model(""))
        let inputs: [RunInput] = [.archive(path: try Self.archive(in: folder)),
                                  .archive(path: try Self.archive(in: folder, name: "shard-2.tar"))]
        _ = try await PipelineRunner.run(plan, inputs: inputs,
                                         configuration: Self.configuration(out, workers: 2, counter: CallCounter()), toolVersion: "test")
        let images = try outputFiles(out).keys.filter { $0.hasPrefix("images/") }.sorted()
        #expect(images == ["images/shard-2.tar/a.jpg", "images/shard-2.tar/b.png.jpg", "images/shard-2.tar/c.JPEG",
                           "images/shard.tar/a.jpg", "images/shard.tar/b.png.jpg", "images/shard.tar/c.JPEG"])
    }

    @Test func anonymizeRedactsAgainWithoutDetecting() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let out = folder.appendingPathComponent("out")
        let input = try Self.archive(in: folder)
        let counter = CallCounter()
        let blur = try Pipelines.anonymize.compile(modelsDirectory: Fixtures.model(""))
        _ = try await PipelineRunner.run(blur, inputs: [.archive(path: input)],
                                         configuration: Self.configuration(out, workers: 2, counter: counter), toolVersion: "test")
        let detections = counter.count("detect"), blurred = try outputFiles(out)
        #expect(detections == 3)
        let pixelate = try Pipelines.anonymize.overriding([StageOverride(stage: "redact", option: "style", value: "pixelate")])
            .compile(modelsDirectory: Fixtures.model(""))
        var configuration = Self.configuration(out, workers: 2, counter: counter, recompute: .from("redact"))
        configuration.resume = true
        let second = try await PipelineRunner.run(pixelate, inputs: [.archive(path: input)], configuration: configuration, toolVersion: "test")
        #expect(counter.count("detect") == detections, "detections came from the cache")
        #expect(second.cacheHits > 0)
        #expect(try outputFiles(out)["images/shard.tar/a.jpg"] != blurred["images/shard.tar/a.jpg"], "pixelated, not blurred")
    }

    @Test func faceCropsWritesEachCropAndNamesItInTheManifest() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let out = folder.appendingPathComponent("out")
        let plan = try Pipelines.faceCrops.compile(modelsDirectory: Fixtures.model(""))
        _ = try await PipelineRunner.run(plan, inputs: [.archive(path: try Self.archive(in: folder))],
                                         configuration: Self.configuration(out, workers: 2, counter: CallCounter()), toolVersion: "test")
        let files = try outputFiles(out)
        let rows = try manifestRows(out)
        #expect(rows.map { $0[Self.column("crop")] }
                == ["crops/shard.tar/a.jpg/0.arcface.png", "crops/shard.tar/b.png/0.arcface.png", "crops/shard.tar/c.JPEG/0.arcface.png"])
        for (name, size) in [("crops/shard.tar/b.png/0.arcface.png", 112), ("crops/shard.tar/b.png/0.ffhq.png", 256)] {
            let crop = try ImageDecoder.decode([UInt8](try #require(files[name])))
            #expect(crop.image.width == size && crop.image.height == size)
        }
        let json = try #require(files["faces/shard.tar/b.png.json"])
        let document = try #require(try JSONSerialization.jsonObject(with: json) as? [String: Any])
        let crops = try #require((document["faces"] as? [[String: Any]])?.first?["crops"] as? [[String: Any]])
        #expect(crops.map { $0["path"] as? String } == ["crops/shard.tar/b.png/0.arcface.png", "crops/shard.tar/b.png/0.ffhq.png"])
        #expect(crops.allSatisfy { ($0["image_to_crop"] as? [Double])?.count == 6 })
    }

    /// With `--output-tar` the crops go into `outputs.tar` beside the images
    /// and JSON, under the paths a folder run writes; the manifest's `crop`
    /// column names members of the tar.
    @Test func faceCropsWithAnOutputTarPutsTheCropsInIt() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let plan = try Pipelines.faceCrops.compile(modelsDirectory: Fixtures.model(""))
        let input = try Self.archive(in: folder)
        let plain = folder.appendingPathComponent("plain"), tarred = folder.appendingPathComponent("tarred")
        _ = try await PipelineRunner.run(plan, inputs: [.archive(path: input)],
                                         configuration: Self.configuration(plain, workers: 2, counter: CallCounter()), toolVersion: "test")
        var configuration = Self.configuration(tarred, workers: 2, counter: CallCounter())
        configuration.outputTar = true
        _ = try await PipelineRunner.run(plan, inputs: [.archive(path: input)], configuration: configuration, toolVersion: "test")
        var inTar: [String: Data] = [:]
        let reader = try TarReader(path: tarred.appendingPathComponent("outputs/000000.tar").path)
        while let item = try reader.next() {
            if case .file(let entry) = item { inTar[entry.name] = Data(entry.data) }
        }
        var expected = try outputFiles(plain)
        expected["manifest.csv"] = nil
        expected["report.html"] = nil
        expected["skipped.csv"] = nil
        #expect(inTar == expected)
        #expect(!FileManager.default.fileExists(atPath: tarred.appendingPathComponent("crops").path))
        let crops = try manifestRows(tarred).map { $0[Self.column("crop")] }
        #expect(crops.count == 3 && crops.allSatisfy { inTar[$0] != nil }, "\(crops)")
    }

    /// Crops are outputs a completion record checks: `--resume` redoes the
    /// entry whose crop was deleted or changed and leaves the rest reused.
    @Test func resumeRedoesAnEntryWhoseCropIsMissingOrChanged() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let out = folder.appendingPathComponent("out")
        let plan = try Pipelines.faceCrops.compile(modelsDirectory: Fixtures.model(""))
        let inputs: [RunInput] = [.archive(path: try Self.archive(in: folder))]
        _ = try await PipelineRunner.run(plan, inputs: inputs,
                                         configuration: Self.configuration(out, workers: 2, counter: CallCounter()), toolVersion: "test")
        let reference = try outputFiles(out)
        try FileManager.default.removeItem(at: out.appendingPathComponent("crops/shard.tar/a.jpg/0.ffhq.png"))
        try Data("changed".utf8).write(to: out.appendingPathComponent("crops/shard.tar/c.JPEG/0.arcface.png"))
        var configuration = Self.configuration(out, workers: 2, counter: CallCounter())
        configuration.resume = true
        let resumed = try await PipelineRunner.run(plan, inputs: inputs, configuration: configuration, toolVersion: "test")
        #expect(resumed.redoneEntries == 2)
        #expect(resumed.resumedEntries == 1)
        #expect(try outputFiles(out) == reference, "the deleted and the changed crop are written again")
    }

    /// A real frontal face (in `t1.jpg`, insightface's group photo, the face
    /// at the left edge): its five mesh points, through the crop's map in the
    /// JSON, land within 2 px of the ArcFace template.
    @Test func fivePointsOfAFrontalFaceLandOnTheTemplate() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let out = folder.appendingPathComponent("out")
        let plan = try Pipelines.faceCrops.compile(modelsDirectory: Fixtures.model(""))
        _ = try await PipelineRunner.run(plan, inputs: [try RunInput.fromArgument(Fixtures.photo("t1.jpg").path)],
                                         configuration: RunConfiguration(outputDirectory: out, workers: 1), toolVersion: "test")
        let files = try outputFiles(out)
        let json = try #require(files["faces/t1.jpg.json"])
        let document = try #require(try JSONSerialization.jsonObject(with: json) as? [String: Any])
        let faces = try #require(document["faces"] as? [[String: Any]])
        let face = try #require(faces.first { ($0["box_px"] as? [Double])?.first.map { $0 < 100 } == true && $0["kept"] as? Bool == true })
        let points = try #require(face["points"] as? [String: [String: Any]])
        func px(_ group: String) throws -> [[Double]] { try #require(points[group]?["px"] as? [[Double]]) }
        let mesh = try px("mesh")
        let five = [try px("right_iris")[0], try px("left_iris")[0], mesh[FaceAlignment.noseTip], mesh[61], mesh[291]]
        let crop = try #require((face["crops"] as? [[String: Any]])?.first)
        #expect(crop["kind"] as? String == "arcface")
        let m = try #require(crop["image_to_crop"] as? [Double])
        for (point, target) in zip(five, FaceAlignment.arcfaceTemplate) {
            // Crop coordinates are continuous; the template's pixel centres sit at whole numbers.
            let x = m[0] * point[0] + m[1] * point[1] + m[2] - 0.5, y = m[3] * point[0] + m[4] * point[1] + m[5] - 0.5
            let distance = ((x - Double(target.x)) * (x - Double(target.x)) + (y - Double(target.y)) * (y - Double(target.y))).squareRoot()
            #expect(distance < 2, "\(point) → (\(x), \(y)), template \(target)")
        }
        let path = try #require(crop["path"] as? String)
        let decoded = try ImageDecoder.decode([UInt8](try #require(files[path])))
        #expect(decoded.image.width == 112 && decoded.image.height == 112)
    }
}
