import Crypto
import FaceAnalysis
import Foundation
import ImageCodecs
import ImageCore
import Pipeline
import RunFolders

/// A run folder as someone else could hand it over, written file by file:
/// `run.json`, `manifest.csv` and one per-image JSON for a single PNG
/// input, each field settable so a test can plant what an attacker would.
/// Its files follow what facepipe writes (the manifest's columns, every
/// field of run.json), so the unplanted folder exports and reports cleanly.
struct StrangerRun {
    /// Holds `run/`, the input PNG and anything else a test puts there.
    let base: URL
    var run: URL { base.appendingPathComponent("run") }
    var input: URL { base.appendingPathComponent("input.png") }
    static let width = 24, height = 16

    var pipelineName = "faces"
    /// run.json's path of the input (nil: none recorded); the PNG's by default.
    var inputPath: String?
    var inputSHA256: String
    var inputBytes: Int64
    /// The per-image JSON's `archive` and `entry`; the manifest's too.
    var archive = "input.png"
    var entry = "input.png"
    /// The manifest's `faces_json` and `output`, and where the JSON is written.
    var facesJSON = "faces/input.png/input.png.json"
    var output = "images/input.png/input.png.png"
    /// run.json's bytes before the JSON (a byte order mark), and extra top-level fields.
    var runJSONPrefix: [UInt8] = []
    var runJSONExtra = ""
    /// Extra manifest rows (already CSV-encoded lines, without line end).
    var extraManifestLines: [String] = []

    init() throws {
        base = FileManager.default.temporaryDirectory.appendingPathComponent("facepipe-stranger-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: base.appendingPathComponent("run"), withIntermediateDirectories: true)
        let png = try Self.png(fill: (200, 40, 40))
        try Data(png).write(to: base.appendingPathComponent("input.png"))
        inputPath = base.appendingPathComponent("input.png").path
        inputSHA256 = Self.sha256(png)
        inputBytes = Int64(png.count)
    }

    static func png(fill: (UInt8, UInt8, UInt8)) throws -> [UInt8] {
        try FastPNGEncoder.encode(RGBImage(width: width, height: height, fill: fill))
    }

    static func sha256(_ bytes: [UInt8]) -> String {
        SHA256.hash(data: bytes).map { String(format: "%02x", $0) }.joined()
    }

    static func jsonString(_ text: String) -> String {
        String(decoding: try! JSONEncoder().encode(text), as: UTF8.self)
    }

    /// A CSV field quoted as RFC 4180 says (the fixture's own writer).
    static func csv(_ field: String) -> String {
        "\"" + field.unicodeScalars.map { $0 == "\"" ? "\"\"" : String($0) }.joined() + "\""
    }

    /// One manifest line (no line end) of entry `index` with one kept face.
    static func manifestLine(archive: String, entry: String, index: Int, output: String, facesJSON: String, status: String = "ok") -> String {
        var row = ManifestRow()
        row[.archive] = archive; row[.entry] = entry; row[.index] = String(index); row[.status] = status
        row[.width] = String(width); row[.height] = String(height); row[.exifOrientation] = "1"
        row[.face] = "0"; row[.confidence] = "0.9000"; row[.x] = "2.00"; row[.y] = "2.00"; row[.w] = "5.00"; row[.h] = "5.00"
        row[.output] = output; row[.facesJSON] = facesJSON
        return row.cells.map(csv).joined(separator: ",")
    }

    /// Writes run.json, manifest.csv and the per-image JSON (``imageJSON``).
    func write() throws {
        let path = inputPath.map(Self.jsonString) ?? "null"
        // Every field of a run record (``RunRecord``); `runJSONExtra` comes
        // after the rest, so a field it repeats is the one a reader that
        // takes the last of two (the page's JSON.parse) sees.
        let summary = String(decoding: try JSONEncoder().encode(RunSummary()), as: UTF8.self)
        let runJSON = """
        {"tool":"facepipe","toolVersion":"0","resultsVersion":"\(CompiledPipeline.resultsVersion)","overrides":[],"commandLine":[],
         "models":[],"configuration":{"workers":1,"recompute":"use-cache","resume":false,"modelsDirectory":"models"},
         "manifestColumns":[],"started":"2026-01-01T00:00:00Z","finished":"2026-01-01T00:00:00Z",
         "pipeline":{"name":\(Self.jsonString(pipelineName)),"fingerprint":"0","stages":[]},\(runJSONExtra)
         "inputs":[{"name":\(Self.jsonString(archive)),"path":\(path),"sha256":"\(inputSHA256)","bytes":\(inputBytes)}],
         "summary":\(summary)}
        """
        try Data(runJSONPrefix + Array(runJSON.utf8)).write(to: run.appendingPathComponent("run.json"))
        let lines = [Manifest.columns.joined(separator: ","),
                     Self.manifestLine(archive: archive, entry: entry, index: 0, output: output, facesJSON: facesJSON)] + extraManifestLines
        try Data(lines.map { $0 + "\r\n" }.joined().utf8).write(to: run.appendingPathComponent("manifest.csv"))
        // A planted faces_json (absolute, `..`, through a link) is the test's to write.
        if !facesJSON.hasPrefix("/"), !facesJSON.contains(".."), !facesJSON.contains("link") {
            let file = run.appendingPathComponent(facesJSON)
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(imageJSON.utf8).write(to: file)
        }
    }

    /// The per-image JSON: one kept face, a 5×5 box at (2, 2), with a mesh
    /// and irises (every point at the box's centre) for the 5 keypoints.
    var imageJSON: String {
        func group(_ count: Int) -> String { "{\"px\":[" + Array(repeating: "[4.5,4.5]", count: count).joined(separator: ",") + "]}" }
        let points = "{\"mesh\":\(group(FaceLandmarks.meshPointCount)),\"left_iris\":\(group(5)),\"right_iris\":\(group(5))}"
        return """
        {"archive":\(Self.jsonString(archive)),"entry":\(Self.jsonString(entry)),"index":0,"width":\(Self.width),"height":\(Self.height),"exif_orientation":1,
         "faces":[{"face":0,"kept":true,"confidence":0.9,"box_px":[2,2,5,5],"points":\(points)}]}
        """
    }

    func remove() { try? FileManager.default.removeItem(at: base) }
}
