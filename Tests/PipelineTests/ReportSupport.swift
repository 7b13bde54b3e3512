import Foundation
import Pipeline
import PipelineRunning
import Pipelines
import RunFolders
import _TestSupport

/// A `faces` run over the sample archives with damaged entries
/// (`datasets/build/sample-bad*.tar`): kept and rejected faces, failed
/// entries, a damaged archive and skipped links, so every part of a report
/// has something to show.
enum ReportSample {
    static let archives = ["sample-bad.tar", "sample-bad-truncated.tar"].map {
        Fixtures.repositoryRoot.appendingPathComponent("datasets/build").appendingPathComponent($0)
    }
    /// Present after `make sample`; `make test` builds them, so there they must exist.
    static let available = ProcessInfo.processInfo.environment["FACEPIPE_REQUIRE_MODELS"] == "1"
        || archives.allSatisfy { FileManager.default.fileExists(atPath: $0.path) }

    @discardableResult
    static func run(into out: URL, workers: Int) async throws -> RunSummary {
        let plan = try PipelineRegistry.builtIn.named("faces").compile(modelsDirectory: Fixtures.model(""))
        return try await PipelineRunner.run(plan, inputs: archives.map { .archive(path: $0.path) },
                                            configuration: RunConfiguration(outputDirectory: out, workers: workers),
                                            toolVersion: "test")
    }

    /// Rows by status, entries and kept faces, counted from manifest rows read back with CSV.swift.
    static func counts(_ rows: [[String: String]]) -> (rows: [String: Int], entries: Int, kept: Int, images: Int) {
        let byStatus = Dictionary(grouping: rows, by: { $0["status"]! }).mapValues(\.count)
        let entries = Set(rows.filter { !$0["index"]!.isEmpty }.map { [$0["archive"]!, $0["entry"]!, $0["index"]!] }).count
        let kept = rows.filter { $0["status"] == "ok" && !$0["face"]!.isEmpty }.count
        let images = Set(rows.compactMap { $0["output"]!.isEmpty ? nil : $0["output"]! }).count
        return (byStatus, entries, kept, images)
    }
}
