import Foundation
import Pipeline
import RunFolders
import Testing
import _TestSupport

/// report.html of a real run: counts that agree with the manifest, the same
/// bytes for any worker count (but for the run.json it embeds), rebuilt
/// identically by `facepipe report`, nothing fetched from outside, written
/// without following a planted link.
@Suite(.enabled(if: Fixtures.modelsAvailable, "needs the models (make models)"),
       .enabled(if: ReportSample.available, "needs datasets/build/sample-bad*.tar (make sample)"))
struct ReportTests {
    @Test func countsAgreeWithTheManifestAndWorkersDoNotMatter() async throws {
        let one = try temporaryFolder(), three = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: one); try? FileManager.default.removeItem(at: three) }
        try await ReportSample.run(into: one, workers: 1)
        try await ReportSample.run(into: three, workers: 3)
        let page = try Data(contentsOf: one.appendingPathComponent("report.html"))
        let other = try Data(contentsOf: three.appendingPathComponent("report.html"))
        #expect(page != other, "the embedded run.json records the worker count")
        #expect(reportWithoutRunJSON(page) == reportWithoutRunJSON(other), "the rest is the same bytes")

        let rows = try ManifestReadBack.check(one)
        let expected = ReportSample.counts(rows)
        let report = try RunReport.read(directory: one).report
        for item in report.rowsByStatus {
            #expect(item.count == expected.rows[item.status, default: 0], "rows \(item.status)")
        }
        #expect(report.entries + report.inputErrors == expected.entries + rows.filter { $0["index"]!.isEmpty }.count)
        #expect(report.keptFaces == expected.kept)
        #expect(report.gallery.count == expected.images)
        #expect(report.errors.reduce(0) { $0 + $1.count } == expected.rows["error", default: 0])
        #expect(report.errors.contains { $0.reason == "archive unreadable, later entries lost" })
        #expect(report.skipped.contains { $0.reason == "symlink: not a regular file" && $0.example == "sample-bad.tar/bad/link.jpg" })
        for histogram in report.histograms {
            // faces computes no quality: that histogram is empty; every kept face has the rest.
            let values = rows.filter { $0["status"] == "ok" && !$0["face"]!.isEmpty && !$0[histogram.column]!.isEmpty }.count
            #expect(histogram.counts.reduce(0, +) == values, "\(histogram.column)")
        }

        // `facepipe report DIR` rebuilds the same file.
        try FileManager.default.removeItem(at: one.appendingPathComponent("report.html"))
        try RunReport.write(directory: one)
        #expect(try Data(contentsOf: one.appendingPathComponent("report.html")) == page)
    }

    @Test func referencesNothingOutside() async throws {
        let out = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: out) }
        try await ReportSample.run(into: out, workers: 2)
        let page = try String(contentsOf: out.appendingPathComponent("report.html"), encoding: .utf8)
        for outside in ["http:", "https:", "//", "<script src", "<link", "<iframe", "@import", "url(", "src=", "href="] {
            #expect(!page.lowercased().contains(outside), "report.html contains \(outside)")
        }
        #expect(page.contains("<img") == false, "gallery images are created by the script, relative to the page")
        #expect(page.contains("img.loading = 'lazy'"))
    }

    @Test func aPlantedLinkIsReplacedNotFollowed() async throws {
        let parent = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: parent) }
        let out = parent.appendingPathComponent("out"), victim = parent.appendingPathComponent("victim.txt")
        try await ReportSample.run(into: out, workers: 2)
        try Data("keep".utf8).write(to: victim)
        let report = out.appendingPathComponent("report.html")
        try FileManager.default.removeItem(at: report)
        try FileManager.default.createSymbolicLink(at: report, withDestinationURL: victim)
        try RunReport.write(directory: out)
        #expect(try String(contentsOf: victim, encoding: .utf8) == "keep")
        let kind = try FileManager.default.attributesOfItem(atPath: report.path)[.type] as? FileAttributeType
        #expect(kind == .typeRegular)
    }

    @Test func aFolderWithoutAManifestIsAnError() throws {
        let out = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: out) }
        do {
            try RunReport.write(directory: out)
            Issue.record("a report without a manifest")
        } catch {
            #expect(error == .unreadable(file: out.appendingPathComponent("manifest.csv").path, reason: "No such file or directory"))
        }
        #expect(!FileManager.default.fileExists(atPath: out.appendingPathComponent("report.html").path))
    }
}
