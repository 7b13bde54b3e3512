import ArchiveIO
import Foundation
import ImageCodecs
import Pipeline
import PipelineRunning
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
        let plan = try PipelineRegistry.builtIn.named(pipeline).compile(modelsDirectory: Fixtures.model(""))
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

        // Every file_name opens from annotations.json's folder, an upright PNG
        // of the image's width and height (the sample has EXIF orientations 2–8).
        let coco = try JSONSerialization.jsonObject(with: Data(contentsOf: dest.appendingPathComponent("annotations.json"))) as? [String: Any]
        let listed = try #require(coco?["images"] as? [[String: Any]])
        let files = try #require(seen["files"] as? [[String: Any]])
        #expect(files.count == listed.count)
        let outputNames = try Self.outputNames(run)
        for (file, image) in zip(files, listed) {
            let name = try #require(file["file_name"] as? String)
            #expect(name == "images/" + (outputNames[image["entry"] as? String ?? ""] ?? "?") + ".png")
            #expect(!name.split(separator: "/").contains("."), "\(name)")
            #expect(file["size"] as? [Int] == [image["width"] as? Int ?? -1, image["height"] as? Int ?? -1], "\(file)")
        }
    }

    /// Each entry's output name (`sample.tar/<entry>`, from the manifest's faces_json).
    static func outputNames(_ run: URL) throws -> [String: String] {
        var names: [String: String] = [:]
        for row in try manifestRows(run) where !row[24].isEmpty {
            names[row[1]] = String(row[24].dropFirst("faces/".count).dropLast(".json".count))
        }
        return names
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
        let (run, dest) = try await Self.export("faces", ExportOptions(format: .wider))
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

    // MARK: Text formats, line by line against their published layouts

    /// The astronaut photo (the sample's first entry, one face) in the training-annotations run.
    static let astronautBox = "177 70 93 106"

    @Test func yoloLabelsFollowUltralyticsPoseLayout() async throws {
        let (run, dest) = try await Self.export("training-annotations", ExportOptions(format: .yolo))
        defer { try? FileManager.default.removeItem(at: dest) }
        let rows = try manifestRows(run)
        var labelled = 0
        for image in try Self.expectedImages(run) {
            let name = try #require(rows.first { $0[1] == image.entry }.map { String($0[24].dropFirst("faces/".count).dropLast(".json".count)) })
            #expect(FileManager.default.fileExists(atPath: dest.appendingPathComponent("images/\(name).png").path))
            let lines = try String(contentsOf: dest.appendingPathComponent("labels/\(name).txt"), encoding: .utf8)
                .split(separator: "\n").map { $0.split(separator: " ").map(String.init) }
            #expect(lines.count == image.kept, "\(name)")
            for fields in lines {
                // class, cx cy w h, then 5 × (px py v); coordinates 0…1 (what Ultralytics checks), v 0 or 2.
                #expect(fields.count == 20 && fields[0] == "0", "\(fields)")
                let visibility = Set(stride(from: 7, to: 20, by: 3))
                let coordinates = (1..<fields.count).filter { !visibility.contains($0) }.compactMap { Double(fields[$0]) }
                #expect(coordinates.count == 14 && coordinates.allSatisfy { (0...1).contains($0) }, "\(fields)")
                #expect(visibility.allSatisfy { fields[$0] == "0" || fields[$0] == "2" }, "\(fields)")
            }
            labelled += lines.count
        }
        #expect(labelled == (try Self.expectedImages(run)).reduce(0) { $0 + $1.kept })
        let first = try String(contentsOf: dest.appendingPathComponent("labels/sample.tar/sample/faces/astronaut.png.txt"), encoding: .utf8)
        #expect(first == "0 0.436524 0.240407 0.182162 0.205979 0.398080 0.197750 2 0.481602 0.202090 2 0.436172 0.252516 2 0.389623 0.272066 2 0.483043 0.277029 2\n")
        let yaml = try String(contentsOf: dest.appendingPathComponent("dataset.yaml"), encoding: .utf8)
        for line in ["train: images", "val: images", "kpt_shape: [5, 3]", "flip_idx: [1, 0, 2, 4, 3]", "names:", "  0: face"] {
            #expect(yaml.split(separator: "\n").contains(Substring(line)), "dataset.yaml lacks \(line)")
        }
    }

    @Test func widerAndRetinaFaceFilesFollowTheirLayouts() async throws {
        let (run, wider) = try await Self.export("training-annotations", ExportOptions(format: .wider))
        let retina = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: wider); try? FileManager.default.removeItem(at: retina) }
        _ = try Exporter.export(run: run, to: retina, options: ExportOptions(format: .retinaface))
        let images = try Self.expectedImages(run)
        let outputNames = try Self.outputNames(run)

        // WIDER: path (the upright PNG, relative to images/ beside the file), count, max(count, 1) lines of ten integers.
        var lines = try String(contentsOf: wider.appendingPathComponent("wider_face_bbx_gt.txt"), encoding: .utf8).split(separator: "\n")[...]
        for image in images {
            let path = (outputNames[image.entry] ?? "?") + ".png"
            #expect(lines.popFirst() == Substring(path))
            #expect(FileManager.default.fileExists(atPath: wider.appendingPathComponent("images/" + path).path), "\(path)")
            #expect(lines.popFirst() == Substring(String(image.kept)))
            for _ in 0..<max(image.kept, 1) {
                let fields = lines.popFirst()?.split(separator: " ") ?? []
                #expect(fields.count == 10 && fields.allSatisfy { Int($0) != nil } && fields.suffix(6).allSatisfy { $0 == "0" }, "\(fields)")
            }
        }
        #expect(lines.isEmpty)
        let widerText = try String(contentsOf: wider.appendingPathComponent("wider_face_bbx_gt.txt"), encoding: .utf8)
        #expect(widerText.hasPrefix("sample.tar/sample/faces/astronaut.png.png\n1\n\(Self.astronautBox) 0 0 0 0 0 0\n"))

        // RetinaFace: "# path", then per face x y w h, five lx ly flag, the confidence.
        lines = try String(contentsOf: retina.appendingPathComponent("label.txt"), encoding: .utf8).split(separator: "\n")[...]
        for image in images {
            let path = (outputNames[image.entry] ?? "?") + ".png"
            #expect(lines.popFirst() == Substring("# " + path))
            #expect(FileManager.default.fileExists(atPath: retina.appendingPathComponent("images/" + path).path), "\(path)")
            for _ in 0..<image.kept {
                let fields = lines.popFirst()?.split(separator: " ") ?? []
                #expect(fields.count == 20 && fields.allSatisfy { Double($0) != nil }, "\(fields)")
                #expect(stride(from: 6, to: 19, by: 3).allSatisfy { fields[$0] == "0.0" || fields[$0] == "-1.0" })
            }
        }
        #expect(lines.isEmpty)
        let label = try String(contentsOf: retina.appendingPathComponent("label.txt"), encoding: .utf8).split(separator: "\n")
        #expect(label[1] == "\(Self.astronautBox) 203.817 101.248 0.0 246.580 103.470 0.0 223.320 129.288 0.0 199.487 139.298 0.0 247.318 141.839 0.0 0.9322")
    }

    @Test func ptsFilesAreIBUG68OneBased() async throws {
        let (run, dest) = try await Self.export("training-annotations", ExportOptions(format: .pts))
        defer { try? FileManager.default.removeItem(at: dest) }
        var count = 0
        let walker = FileManager.default.enumerator(atPath: dest.path)
        while let file = walker?.nextObject() as? String {
            guard file.hasSuffix(".pts") else { continue }
            let lines = try String(contentsOf: dest.appendingPathComponent(file), encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
            #expect(lines.count == 73 && lines[0] == "version: 1" && lines[1] == "n_points:  68" && lines[2] == "{" && lines[71] == "}" && lines[72] == "", "\(file)")
            #expect(lines[3..<71].allSatisfy { $0.split(separator: " ").count == 2 && $0.split(separator: " ").allSatisfy { Double($0) != nil } }, "\(file)")
            count += 1
        }
        #expect(count == (try Self.expectedImages(run)).reduce(0) { $0 + $1.kept })
        // The astronaut's 68 points: the run's ibug68 pixels + 0.5, to the thousandth.
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: run.appendingPathComponent("faces/sample.tar/sample/faces/astronaut.png.json"))) as? [String: Any]
        let face = try #require((json?["faces"] as? [[String: Any]])?.first)
        let ibug = try #require(((face["points"] as? [String: Any])?["ibug68"] as? [String: Any])?["px"] as? [[Double]])
        let pts = try String(contentsOf: dest.appendingPathComponent("pts/sample.tar/sample/faces/astronaut.png_0.pts"), encoding: .utf8).split(separator: "\n")
        #expect(ibug.count == 68)
        for (point, line) in zip(ibug, pts[3..<71]) {
            let xy = line.split(separator: " ").compactMap { Double($0) }
            #expect(abs(xy[0] - (point[0] + 0.5)) < 1e-6 && abs(xy[1] - (point[1] + 0.5)) < 1e-6, "\(line) vs \(point)")
        }
        #expect(pts[3] == "179.045 102.330")
    }

    // MARK: Re-reading the inputs

    /// A `faces` run of one photo, from a folder and from a tar of that folder.
    static func onePhotoRuns() async throws -> (folder: URL, archive: URL, folderRun: URL, archiveRun: URL) {
        let root = try temporaryFolder()
        let folder = root.appendingPathComponent("photos")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("people"), withIntermediateDirectories: true)
        let photo = try Fixtures.bytes(Fixtures.photo("astronaut.png"))
        try Data(photo).write(to: folder.appendingPathComponent("people/astronaut.png"))
        let archive = root.appendingPathComponent("photos.tar")
        let writer = try TarWriter(path: archive.path)
        try writer.add(path: "./people/astronaut.png", data: photo)
        try writer.finish()
        let plan = try PipelineRegistry.builtIn.named("faces").compile(modelsDirectory: Fixtures.model(""))
        var runs: [URL] = []
        for input in [RunInput.folder(path: folder.path, name: "photos"), .archive(path: archive.path)] {
            let out = root.appendingPathComponent("run-\(runs.count)")
            _ = try await PipelineRunner.run(plan, inputs: [input], configuration: RunConfiguration(outputDirectory: out, workers: 1), toolVersion: "test")
            runs.append(out)
        }
        return (folder, archive, runs[0], runs[1])
    }

    @Test func pathsNameTheWrittenImagesOrTheOriginalsAndAChangedInputIsRefused() async throws {
        let (folder, archive, folderRun, archiveRun) = try await Self.onePhotoRuns()
        let root = folder.deletingLastPathComponent()
        defer { try? FileManager.default.removeItem(at: root) }
        let astronaut = try ImageDecoder.decode(Fixtures.bytes(Fixtures.photo("astronaut.png"))).uprightImage()
        // By default: the written upright PNG, relative to annotations.json, no `./` (the archive's entry is ./people/astronaut.png).
        for run in [folderRun, archiveRun] {
            let dest = root.appendingPathComponent("coco-\(run.lastPathComponent)")
            _ = try Exporter.export(run: run, to: dest, options: ExportOptions(format: .coco))
            let coco = try JSONSerialization.jsonObject(with: Data(contentsOf: dest.appendingPathComponent("annotations.json"))) as? [String: Any]
            let name = try #require((coco?["images"] as? [[String: Any]])?.first?["file_name"] as? String)
            #expect(name.hasPrefix("images/") && !name.split(separator: "/").contains("."), "\(name)")
            #expect(try ImageDecoder.decode(Fixtures.bytes(dest.appendingPathComponent(name))).image == astronaut, "\(name)")
        }
        // --reference-originals: a folder's file, relative to DEST; nothing else written.
        let dest = root.appendingPathComponent("exports/coco")
        _ = try Exporter.export(run: folderRun, to: dest, options: ExportOptions(format: .coco, referenceOriginals: true))
        let coco = try JSONSerialization.jsonObject(with: Data(contentsOf: dest.appendingPathComponent("annotations.json"))) as? [String: Any]
        #expect((coco?["images"] as? [[String: Any]])?.first?["file_name"] as? String == "../../photos/people/astronaut.png")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dest.path) == ["annotations.json"])
        // An archive's entry cannot be referenced: refused naming it, nothing written.
        let refused = root.appendingPathComponent("refused")
        let error = try #require(throws: ExportError.self) {
            try Exporter.export(run: archiveRun, to: refused, options: ExportOptions(format: .coco, referenceOriginals: true))
        }
        guard case .originalNotReferenceable(let image, let reason) = error else { Issue.record("\(error)"); return }
        #expect(image == "photos.tar/people/astronaut.png", "named without the stored ./ (EntryDisplayName)")
        #expect(reason == "it is an entry of the archive \(archive.path)")
        #expect(!FileManager.default.fileExists(atPath: refused.path))

        // Same pixels, another archive (a header's mtime differs): its SHA-256 no longer matches run.json.
        let writer = try TarWriter(path: archive.path)
        try writer.add(path: "./people/astronaut.png", data: Fixtures.bytes(Fixtures.photo("astronaut.png")), modificationTime: 1)
        try writer.finish()
        let changed = try #require(throws: ExportError.self) {
            try Exporter.export(run: archiveRun, to: root.appendingPathComponent("changed"), options: ExportOptions(format: .coco))
        }
        guard case .inputChanged(let input, let why) = changed else { Issue.record("\(changed)"); return }
        #expect(input == archive.path)
        #expect(why.contains("SHA-256"), "\(why)")
        // The folder run still exports its clean image.
        _ = try Exporter.export(run: folderRun, to: root.appendingPathComponent("clean"), options: ExportOptions(format: .coco))
        let png = try ImageDecoder.decode(Fixtures.bytes(root.appendingPathComponent("clean/images/photos/people/astronaut.png.png")))
        #expect(png.image == astronaut)
    }

    /// An EXIF-rotated file: `--reference-originals` refuses it, naming it;
    /// by default its upright PNG is written and COCO's size and boxes are that PNG's.
    @Test func aRotatedOriginalIsRefusedAndWrittenUprightByDefault() async throws {
        let root = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let sample = try await SampleRuns.named("faces")
        // The sample's first entry with an EXIF orientation other than 1.
        let row = try #require(try manifestRows(sample).first { $0[7] != "1" && $0[7] != "" && $0[3] != "error" })
        let reader = try TarReader(path: SampleRuns.archive.path)
        var bytes: [UInt8]?
        while let item = try reader.next() {
            if case .file(let entry) = item, entry.name == row[1] { bytes = entry.data }
        }
        let folder = root.appendingPathComponent("photos")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data(try #require(bytes)).write(to: folder.appendingPathComponent("turned.jpg"))
        let run = root.appendingPathComponent("run")
        let plan = try PipelineRegistry.builtIn.named("faces").compile(modelsDirectory: Fixtures.model(""))
        _ = try await PipelineRunner.run(plan, inputs: [.folder(path: folder.path, name: "photos")],
                                         configuration: RunConfiguration(outputDirectory: run, workers: 2), toolVersion: "test")
        let refused = root.appendingPathComponent("refused")
        let error = try #require(throws: ExportError.self) {
            try Exporter.export(run: run, to: refused, options: ExportOptions(format: .coco, referenceOriginals: true))
        }
        #expect(error == .originalNotReferenceable(image: "photos/turned.jpg", reason: "its EXIF orientation is \(row[7]), so the file's pixels are turned from the upright ones the annotations describe"))
        #expect(error.description.hasPrefix("--reference-originals cannot point at photos/turned.jpg: its EXIF orientation is \(row[7])"))
        #expect(!FileManager.default.fileExists(atPath: refused.path))

        let dest = root.appendingPathComponent("coco")
        _ = try Exporter.export(run: run, to: dest, options: ExportOptions(format: .coco))
        let coco = try JSONSerialization.jsonObject(with: Data(contentsOf: dest.appendingPathComponent("annotations.json"))) as? [String: Any]
        let image = try #require((coco?["images"] as? [[String: Any]])?.first)
        let png = try ImageDecoder.decode(Fixtures.bytes(dest.appendingPathComponent(try #require(image["file_name"] as? String))))
        #expect(png.image.width == image["width"] as? Int && png.image.height == image["height"] as? Int)
        #expect(png.image == (try ImageDecoder.decode(try #require(bytes))).uprightImage())
        for annotation in try #require(coco?["annotations"] as? [[String: Any]]) {
            let box = try #require(annotation["bbox"] as? [Double])
            #expect(box[0] + box[2] <= Double(png.image.width) + 0.001 && box[1] + box[3] <= Double(png.image.height) + 0.001)
        }
    }

    /// `export coco` reads the run's manifest and per-image JSON once, as
    /// the kernel counts the bytes the binary reads (`rchar` of
    /// `/proc/PID/io`, which adds a reaped child's to the shell that waited
    /// for it): the JSON, the manifest and run.json once, the input twice
    /// (hashed, then decoded), and besides them less than twice the JSON's
    /// bytes (its spool, read back three times, and the loader's reads). It
    /// read the JSON and the manifest four times (42 MB here, where this
    /// bound is 38 MB).
    @Test(.enabled(if: FacepipeProcess.available))
    func coco_readsEachImagesJSONOnce() async throws {
        let run = try await SampleRuns.named("faces")
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        func size(_ url: URL) throws -> Int { try #require(try url.resourceValues(forKeys: [.fileSizeKey]).fileSize) }
        var json = 0
        for case let file as URL in FileManager.default.enumerator(at: run.appendingPathComponent("faces"), includingPropertiesForKeys: [.fileSizeKey])!
            where file.pathExtension == "json" { json += try size(file) }
        let once = try json + size(run.appendingPathComponent("manifest.csv")) + size(run.appendingPathComponent("run.json"))
        let input = try size(SampleRuns.archive)
        let counted = folder.appendingPathComponent("io.txt"), dest = folder.appendingPathComponent("coco")
        let child = try FacepipeProcess.start(
            ["-c", "\"$0\" \"$@\" || exit $?; grep '^rchar:' /proc/$$/io > \(counted.path)", FacepipeProcess.binary.path,
             "export", "coco", run.path, "--out", dest.path],
            executable: URL(fileURLWithPath: "/bin/bash"), in: folder)
        #expect(child.wait() == 0, "\(child.standardError)")
        let line = try String(contentsOf: counted, encoding: .utf8)
        let read = try #require(Int(line.dropFirst("rchar:".count).trimmingCharacters(in: .whitespacesAndNewlines)))
        #expect(read < once + 2 * input + 2 * json,
                "read \(read) bytes: per-image JSON \(json), manifest and run.json \(once - json), input \(input)")
    }
}
