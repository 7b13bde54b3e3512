import Foundation
import Pipeline
import PipelineRunning
import RunFolders
import Testing

/// `run.json` has one type, ``RunRecord``: what a run writes reads back as
/// the same bytes, and every reader (the export, the report, the next run,
/// the merge) refuses, naming the field, what facepipe would not have written.
struct RunRecordTests {
    /// A run's run.json, decoded and encoded again, is the same bytes.
    @Test func aRunsRecordReadsBackAsTheSameBytes() async throws {
        let root = try await ExportTests.redSquareRun()
        defer { try? FileManager.default.removeItem(at: root) }
        let run = root.appendingPathComponent("run")
        let bytes = try [UInt8](Data(contentsOf: run.appendingPathComponent("run.json")))
        let record = try RunRecord(decoding: bytes)
        #expect(record.pipeline.name == "red-squares")
        #expect(record.summary.entries == 8)
        #expect(record.merged == nil && record.shards == nil)
        #expect(try record.encoded() == bytes)
    }

    /// A run.json with a field removed (`summary.entries`, `tool`) or of
    /// another type (`inputs.0.bytes`): the record is refused naming it.
    @Test(arguments: [("summary.entries", "missing"), ("tool", "missing"), ("inputs.0.bytes", "text")])
    func aRecordWithoutAFieldIsRefusedNamingIt(field: String, change: String) throws {
        let run = try StrangerRun()
        defer { run.remove() }
        try run.write()
        let url = run.run.appendingPathComponent("run.json")
        var object = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
        switch field {
        case "summary.entries":
            var summary = try #require(object["summary"] as? [String: Any])
            summary["entries"] = nil
            object["summary"] = summary
        case "tool":
            object["tool"] = nil
        default:
            var inputs = try #require(object["inputs"] as? [[String: Any]])
            inputs[0]["bytes"] = "12"
            object["inputs"] = inputs
        }
        try JSONSerialization.data(withJSONObject: object).write(to: url)
        let bytes = try [UInt8](Data(contentsOf: url))
        let failure = try #require(throws: RunRecord.Failure.self) { try RunRecord(decoding: bytes) }
        #expect(failure.field == field, "\(failure)")

        // The export refuses it, naming the file and the field.
        let export = try #require(throws: ExportError.self) {
            try Exporter.export(run: run.run, to: run.base.appendingPathComponent("dest"), options: ExportOptions(format: .coco))
        }
        guard case .unreadableRun(let file, let reason) = export else { Issue.record("\(export)"); return }
        #expect(file == run.run.appendingPathComponent("run.json").path && reason.contains(field), "\(export)")
        #expect(!FileManager.default.fileExists(atPath: run.base.appendingPathComponent("dest").path))

        // The report still shows the folder (and run.json's text), and says why it lists no skipped entries.
        let report = try RunReport.read(directory: run.run).report
        #expect(report.runRecordProblem?.contains(field) == true, "\(report.runRecordProblem ?? "nil")")
        #expect(report.text.contains("run.json: \(field)"), "\(report.text)")
    }

    /// Counters a summary cannot have (negative, past ``RunRecord/counterLimit``,
    /// megapixels not finite or past it) are refused naming the counter.
    @Test(arguments: [("entries", "-1"), ("cacheHits", "1099511627777"), ("megapixels", "1e300")])
    func aCounterOutOfRangeIsRefusedNamingIt(counter: String, value: String) throws {
        let run = try StrangerRun()
        defer { run.remove() }
        try run.write()
        let url = run.run.appendingPathComponent("run.json")
        var object = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
        var summary = try #require(object["summary"] as? [String: Any])
        summary[counter] = "PLANTED"
        object["summary"] = summary
        let text = String(decoding: try JSONSerialization.data(withJSONObject: object), as: UTF8.self)
            .replacingOccurrences(of: "\"PLANTED\"", with: value)
        let failure = try #require(throws: RunRecord.Failure.self) { try RunRecord(decoding: Array(text.utf8)) }
        #expect(failure == .badField("summary.\(counter)", reason: failure.reason), "\(failure)")
    }
}
