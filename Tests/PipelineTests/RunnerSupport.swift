import ArchiveIO
import Foundation
import Pipeline
import PipelineRunning
import RunFolders

/// The test pipeline: PPM in, red squares as faces, corners per kept face, inverted boxes, PPM out.
func redSquarePipeline(counter: CallCounter? = nil, minConfidence: Float = 0.5, label: String = "invert") -> Pipeline {
    Pipeline("red-squares", summary: "test pipeline") {
        DecodePPM()
        AsUpright()
        DetectRedSquares(counter: counter)
        FilterConfidence(atLeast: minConfidence)
        ForEachFace {
            Corners(counter: counter)
        }
        InvertBoxes(label: label)
        WriteOutputs(images: ppmOutput, faceJSON: true)
    }
}

func entry(_ archive: String, _ index: Int, _ name: String, _ data: [UInt8]) -> SourceItem {
    .entry(ArchiveEntry(archive: archive, index: index, name: name, rawName: Array(name.utf8), data: data))
}

/// `count` entries: squares that move, some without a square, every 7th a corrupt file.
func sampleItems(archive: String, count: Int) -> [SourceItem] {
    (0..<count).map { i in
        if i % 7 == 6 { return entry(archive, i, "img\(i).ppm", Array("P6\n24 16\n255\n".utf8) + [1, 2, 3]) }
        let square: (x: Int, y: Int, side: Int)? = i % 5 == 4 ? nil : (x: i % 12, y: i % 8, side: 3 + i % 6)
        return entry(archive, i, "dir/img\(i).ppm", makePPM(background: UInt8(60 + i % 100), square: square))
    }
}

func memoryInput(_ name: String, _ items: [SourceItem], failingWith failure: (any Error & Sendable)? = nil) -> RunInput {
    RunInput(name: name, path: nil) { InMemoryEntrySource(items: items, failingWith: failure) }
}

/// A fresh temporary folder, removed by the caller.
func temporaryFolder() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("facepipe-tests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

/// Every file under `root` except run.json, the lock and the cache, by relative path;
/// report.html without the run.json it embeds.
func outputFiles(_ root: URL) throws -> [String: Data] {
    var files: [String: Data] = [:]
    let base = root.standardizedFileURL.path
    guard let walker = FileManager.default.enumerator(atPath: base) else { return files }
    while let relative = walker.nextObject() as? String {
        if relative.hasPrefix(".cache") || relative == "run.json" || relative == ".lock" { continue }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: base + "/" + relative, isDirectory: &isDirectory) else { continue }
        if !isDirectory.boolValue { files[relative] = FileManager.default.contents(atPath: base + "/" + relative) }
    }
    files["report.html"] = files["report.html"].map(reportWithoutRunJSON)
    return files
}

/// report.html without the text of run.json it embeds (its one part that differs between runs).
func reportWithoutRunJSON(_ page: Data) -> Data {
    let text = String(decoding: page, as: UTF8.self)
    let open = "<script type=\"application/json\" id=\"run-json\">"
    guard let start = text.range(of: open), let end = text.range(of: "</script>", range: start.upperBound..<text.endIndex) else {
        return page
    }
    return Data((String(text[..<start.upperBound]) + String(text[end.lowerBound...])).utf8)
}

/// The manifest's data rows, parsed per RFC 4180.
func manifestRows(_ root: URL) throws -> [[String]] {
    Array(parseCSV(try String(contentsOf: root.appendingPathComponent("manifest.csv"), encoding: .utf8)).dropFirst())
}

/// A small RFC 4180 reader (quoted fields, doubled quotes, CRLF).
func parseCSV(_ text: String) -> [[String]] {
    var rows: [[String]] = [], row: [String] = [], field = ""
    var quoted = false, iterator = Array(text).makeIterator()
    var pending: Character? = nil
    while let c = pending ?? iterator.next() {
        pending = nil
        if quoted {
            if c == "\"" {
                if let next = iterator.next() {
                    if next == "\"" { field.append("\"") } else { quoted = false; pending = next }
                } else { quoted = false }
            } else { field.append(c) }
        } else if c == "\"" {
            quoted = true
        } else if c == "," {
            row.append(field); field = ""
        } else if c == "\r\n" || c == "\n" {
            row.append(field); field = ""; rows.append(row); row = []
        } else {
            field.append(c)
        }
    }
    if !field.isEmpty || !row.isEmpty { row.append(field); rows.append(row) }
    return rows
}

func manifestLines(_ root: URL) throws -> [String] {
    try String(contentsOf: root.appendingPathComponent("manifest.csv"), encoding: .utf8)
        .components(separatedBy: "\r\n").filter { !$0.isEmpty }
}

func run(_ pipeline: Pipeline, _ inputs: [RunInput], out: URL, workers: Int = 2,
         recompute: RecomputePolicy = .useCache, resume: Bool = false, overwrite: Bool = false,
         outputTar: Bool = false, hooks: RunHooks = RunHooks()) async throws -> RunSummary {
    let plan = try pipeline.compile(modelsDirectory: URL(fileURLWithPath: "/nonexistent-models"))
    return try await PipelineRunner.run(plan, inputs: inputs,
                                        configuration: RunConfiguration(outputDirectory: out, workers: workers,
                                                                        recompute: recompute, resume: resume,
                                                                        outputTar: outputTar, overwrite: overwrite),
                                        toolVersion: "test", hooks: hooks)
}
