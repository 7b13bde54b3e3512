#if canImport(Glibc)
import Foundation
import Glibc
import Pipeline
import PipelineRunning
import RunFolders
import Testing
#endif

/// Issue 35: a run folder from someone else, exported or reported. Each
/// test plants one attack in a ``StrangerRun`` and checks that the export
/// or report neither carries it into its files nor reads outside the folder.
struct StrangerFolderTests {
    // MARK: Row 6: a pipeline name in dataset.yaml

    @Test func aPipelineNameCannotAddKeysToDatasetYAML() throws {
        var run = try StrangerRun()
        defer { run.remove() }
        run.pipelineName = "faces run\ndownload: bash -c 'touch pwned'\nval: x\u{85}path: /\u{2028}names: y\r\"\\"
        try run.write()
        let dest = run.base.appendingPathComponent("dest")
        _ = try Exporter.export(run: run.run, to: dest, options: ExportOptions(format: .yolo))
        let yamlFile = dest.appendingPathComponent("dataset.yaml")
        let yaml = try String(contentsOf: yamlFile, encoding: .utf8)
        // Lines as YAML 1.1 (PyYAML) breaks them: LF, CR, NEL, LS, PS.
        let lines = yaml.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
        let keys = lines.filter { !$0.hasPrefix("#") && !$0.hasPrefix(" ") && !$0.isEmpty }.map { String($0.prefix { $0 != ":" }) }
        #expect(keys == ["train", "val", "kpt_shape", "flip_idx", "names"])
        #expect(lines.first?.hasPrefix("# facepipe export yolo of a \"faces run\\ndownload") == true, "\(lines.first ?? "")")
        if ExportReaders.available {
            let loaded = try ExportReaders.check(["yaml", yamlFile.path])
            #expect(loaded["keys"] as? [String] == ["flip_idx", "kpt_shape", "names", "train", "val"])
            #expect(loaded["train"] as? String == "images")
        }
    }

    // MARK: Row 7: names in WIDER and RetinaFace lines

    /// The images and face lines of `text` as WIDER FACE's readers walk it:
    /// a path, a count, then max(count, 1) box lines.
    static func widerImages(_ text: String) -> [(path: String, boxes: Int)] {
        let lines = Array(text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init).dropLast())
        var images: [(String, Int)] = []
        var i = lines.startIndex
        while i < lines.endIndex {
            let count = Int(lines[safe: i + 1] ?? "") ?? -1
            images.append((lines[i], count))
            i += 2 + max(count, 1)
        }
        return images
    }

    @Test(arguments: [ExportFormat.wider, .retinaface])
    func anEntryNameCannotAddImagesOrBoxes(format: ExportFormat) throws {
        var run = try StrangerRun()
        defer { run.remove() }
        // The path is the written image's, named after faces_json: `input.png/<name>.png`.
        let name = format == .wider ? "a.png\n1\n0 0 9 9 0 0 0 0 0 0\nfake 100%.png\r" : "a.png\n# fake.png\n1 1 4 4 -1.0 -1.0 -1.0\u{85}b%.png"
        run.facesJSON = "faces/input.png/\(name).json"
        try run.write()
        let dest = run.base.appendingPathComponent("dest")
        _ = try Exporter.export(run: run.run, to: dest, options: ExportOptions(format: format))
        let expectedPath = "input.png/\(name).png"
        if format == .wider {
            let text = try String(contentsOf: dest.appendingPathComponent("wider_face_bbx_gt.txt"), encoding: .utf8)
            let images = Self.widerImages(text)
            #expect(images.count == 1, "\(images)")
            #expect(images.first?.path.removingPercentEncoding == expectedPath)
            #expect(images.first?.boxes == 1)
        } else {
            let text = try String(contentsOf: dest.appendingPathComponent("label.txt"), encoding: .utf8)
            let lines = text.split(omittingEmptySubsequences: true, whereSeparator: \.isNewline)
            let imageLines = lines.filter { $0.hasPrefix("# ") }
            #expect(lines.count == 2 && imageLines.count == 1, "\(lines)")
            #expect(imageLines.first.map { String($0.dropFirst(2)).removingPercentEncoding } == expectedPath)
        }
        #expect(FileManager.default.fileExists(atPath: dest.appendingPathComponent("images/" + expectedPath).path))
    }

    // MARK: Row 8: export --images checks the input before writing

    @Test func anotherFileIsNotWrittenBeforeItsHashIsChecked() throws {
        var run = try StrangerRun()
        defer { run.remove() }
        let other = run.base.appendingPathComponent("other.png")
        try Data(try StrangerRun.png(fill: (10, 200, 10))).write(to: other)
        run.inputPath = other.path
        run.inputBytes = Int64(try Data(contentsOf: other).count)
        try run.write()
        let dest = run.base.appendingPathComponent("dest")
        #expect(throws: ExportError.self) { try Exporter.export(run: run.run, to: dest, options: ExportOptions(format: .coco)) }
        #expect(!FileManager.default.fileExists(atPath: dest.appendingPathComponent("images").path), "pixels written before the hash check")
    }

    @Test func aFolderInRunJSONIsNotWrittenFrom() throws {
        var run = try StrangerRun()
        defer { run.remove() }
        let folder = run.base.appendingPathComponent("pictures")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data(try StrangerRun.png(fill: (10, 200, 10))).write(to: folder.appendingPathComponent("input.png"))
        run.inputPath = folder.path
        try run.write()
        let dest = run.base.appendingPathComponent("dest")
        #expect(throws: ExportError.self) { try Exporter.export(run: run.run, to: dest, options: ExportOptions(format: .coco)) }
        #expect(!FileManager.default.fileExists(atPath: dest.appendingPathComponent("images").path))
    }

    /// A FIFO or /dev/stdin in run.json: the export ends at once with exit 2
    /// naming it (before, it waited for a writer forever).
    @Test(.enabled(if: FacepipeProcess.available, "needs the facepipe binary"),
          arguments: ["fifo", "/dev/stdin"])
    func aStreamInRunJSONIsNeverOpened(path: String) async throws {
        var run = try StrangerRun()
        defer { run.remove() }
        let fifo = run.base.appendingPathComponent("fifo")
        #expect(mkfifo(fifo.path, 0o600) == 0)
        run.inputPath = path == "fifo" ? fifo.path : path
        try run.write()
        let child = try FacepipeProcess.start(["export", "coco", run.run.path, "--out", "dest"], in: run.base,
                                              feedsStandardInput: true)
        let ended = await FacepipeProcess.waitUntil(attempts: 1500) { !child.isRunning }
        if !ended { child.signal(SIGKILL) }
        #expect(ended, "the export hung on \(path)")
        #expect(child.wait() == 2)
        #expect(child.standardError.contains(path == "fifo" ? "a FIFO" : "/dev/stdin"), "\(child.standardError)")
        #expect(!FileManager.default.fileExists(atPath: run.base.appendingPathComponent("dest/images").path))
    }

    /// A stream in run.json (a FIFO): `--reference-originals` refuses to
    /// point at it, naming it, without opening it (before, checking whether
    /// it was an image file opened it and waited for a writer).
    @Test(.enabled(if: FacepipeProcess.available, "needs the facepipe binary"))
    func aStreamInputIsNotReferencedNorOpened() async throws {
        var run = try StrangerRun()
        defer { run.remove() }
        let fifo = run.base.appendingPathComponent("fifo")
        #expect(mkfifo(fifo.path, 0o600) == 0)
        run.inputPath = fifo.path
        try run.write()
        let child = try FacepipeProcess.start(["export", "wider", run.run.path, "--reference-originals", "--out", "dest"], in: run.base)
        let ended = await FacepipeProcess.waitUntil(attempts: 1500) { !child.isRunning }
        if !ended { child.signal(SIGKILL) }
        #expect(ended, "the export opened the FIFO")
        #expect(child.wait() == 2, "\(child.standardError)")
        #expect(child.standardError.contains("--reference-originals cannot point at input.png/input.png: it was read from \(fifo.path), a stream"), "\(child.standardError)")
        #expect(!FileManager.default.fileExists(atPath: run.base.appendingPathComponent("dest").path))
    }

    // MARK: Row 9: reads stay inside the run folder

    enum Escape: String, CaseIterable { case dotDot, absolute, linkedFile, linkedFolder }

    @Test(arguments: Escape.allCases)
    func aPerImageJSONOutsideTheRunFolderIsNotRead(escape: Escape) throws {
        var run = try StrangerRun()
        defer { run.remove() }
        let outside = run.base.appendingPathComponent("outside.json")
        try Data(run.imageJSON.utf8).write(to: outside)
        let faces = run.run.appendingPathComponent("faces")
        try FileManager.default.createDirectory(at: faces, withIntermediateDirectories: true)
        switch escape {
        case .dotDot: run.facesJSON = "faces/../../outside.json"
        case .absolute: run.facesJSON = outside.path
        case .linkedFile:
            run.facesJSON = "faces/link.json"
            try FileManager.default.createSymbolicLink(at: faces.appendingPathComponent("link.json"), withDestinationURL: outside)
        case .linkedFolder:
            run.facesJSON = "faces/linked/outside.json"
            try FileManager.default.createSymbolicLink(at: faces.appendingPathComponent("linked"), withDestinationURL: run.base)
        }
        try run.write()
        let dest = run.base.appendingPathComponent("dest")
        #expect(throws: ExportError.self, "\(escape) read") {
            try Exporter.export(run: run.run, to: dest, options: ExportOptions(format: .wider))
        }
    }

    @Test func aLinkedRunJSONIsNotReadByTheReport() throws {
        let run = try StrangerRun()
        defer { run.remove() }
        try run.write()
        let runJSON = run.run.appendingPathComponent("run.json")
        let moved = run.base.appendingPathComponent("elsewhere.json")
        try FileManager.default.moveItem(at: runJSON, to: moved)
        try FileManager.default.createSymbolicLink(at: runJSON, withDestinationURL: moved)
        #expect(throws: ReportError.self) { try RunReport.read(directory: run.run) }
        #expect(throws: ExportError.self) { try Exporter.export(run: run.run, to: run.base.appendingPathComponent("dest"), options: ExportOptions(format: .wider)) }
    }

    // MARK: Row 14: the report links only inside its folder

    static let hostileOutputs = ["//127.0.0.1:9/x.png", "/etc/passwd", "../../../x.png", "images/../../x.png", "images//x.png", "./x.png"]

    @Test func theGalleryHoldsOnlyPathsInsideTheFolder() throws {
        var run = try StrangerRun()
        defer { run.remove() }
        run.extraManifestLines = Self.hostileOutputs.enumerated().map { i, output in
            StrangerRun.manifestLine(archive: "input.png", entry: "e\(i).png", index: i + 1, output: output, facesJSON: "")
        }
        try run.write()
        let report = try RunReport.read(directory: run.run).report
        #expect(report.gallery.map(\.output) == [run.output])
        #expect(report.keptFaces == 1 + Self.hostileOutputs.count)
    }

    /// `facepipe report` prints the manifest's statuses: escaped.
    @Test func aStatusWithTerminalEscapesIsPrintedEscaped() throws {
        var run = try StrangerRun()
        defer { run.remove() }
        run.extraManifestLines = [StrangerRun.manifestLine(archive: "input.png", entry: "e.png", index: 1, output: "", facesJSON: "",
                                                           status: "\u{1B}]0;owned\u{07}\u{1B}[2J")]
        try run.write()
        let text = try RunReport.read(directory: run.run).report.text
        #expect(text.contains("1 \\u{1B}]0;owned\\u{7}\\u{1B}[2J"), "\(text)")
        #expect(!text.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" }, "a control character printed raw")
    }

    @Test(.enabled(if: Chromium.enabled, "needs chromium (apt-get install chromium)"))
    func thePageSurvivesARunJSONWithABOMAndWrongTypes() throws {
        var run = try StrangerRun()
        defer { run.remove() }
        run.runJSONPrefix = [0xEF, 0xBB, 0xBF]
        run.runJSONExtra = #""commandLine":5,"overrides":"x","configuration":[1],"started":{},"tool":null,"#
        run.extraManifestLines = Self.hostileOutputs.enumerated().map { i, output in
            StrangerRun.manifestLine(archive: "input.png", entry: "e\(i).png", index: i + 1, output: output, facesJSON: "")
        }
        try run.write()
        try RunReport.write(directory: run.run)
        let dom = try Chromium.dumpDOM(run.run.appendingPathComponent(OutputLayout.reportName))
        #expect(Chromium.text(ofID: "faces-kept", in: dom) == String(1 + Self.hostileOutputs.count))
        #expect(Chromium.text(ofID: "title", in: dom) == "facepipe report: faces")
        #expect(Chromium.text(ofID: "gallery-page", in: dom) == "page 1 of 1, 1 images")
        #expect(dom.contains("input.png/input.png.png"))
        #expect(dom.components(separatedBy: "<img").count == 2, "only the image inside the folder is shown")
        #expect(dom.components(separatedBy: "<a href").count == 2, "only the image inside the folder is linked")
    }

    // MARK: DEST inside RUN

    @Test(.enabled(if: FacepipeProcess.available, "needs the facepipe binary"))
    func anExportIntoItsOwnRunFolderIsRefused() throws {
        let run = try StrangerRun()
        defer { run.remove() }
        try run.write()
        try FileManager.default.createDirectory(at: run.run.appendingPathComponent("images"), withIntermediateDirectories: true)
        let before = try Data(contentsOf: run.run.appendingPathComponent("manifest.csv"))
        for dest in [run.run.path, run.run.path + "/images", run.run.path + "/./faces/.."] {
            let (status, stderr) = try FacepipeProcess.run(["export", "wider", run.run.path, "--out", dest], in: run.base)
            #expect(status == 2, "\(dest): \(stderr)")
            #expect(stderr.contains("inside it"), "\(stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: run.run.appendingPathComponent("wider_face_bbx_gt.txt").path))
        #expect(try Data(contentsOf: run.run.appendingPathComponent("manifest.csv")) == before)
        // A new folder inside RUN is allowed.
        let (status, stderr) = try FacepipeProcess.run(["export", "wider", run.run.path, "--out", run.run.path + "/new-export"], in: run.base)
        #expect(status == 0, "\(stderr)")
    }
}

private extension Array {
    subscript(safe index: Int) -> Element? { indices.contains(index) ? self[index] : nil }
}
