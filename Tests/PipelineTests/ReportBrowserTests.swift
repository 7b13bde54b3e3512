import Foundation
import Pipeline
import RunFolders
import Testing
import _TestSupport

/// report.html rendered by a real browser: Debian's chromium, headless,
/// dumps the page's DOM after its script ran; the counts it shows must be
/// the manifest's, read back with CSV.swift.
enum Chromium {
    /// `chromium` (or `chromium-browser`) on PATH.
    static let path: String? = {
        let folders = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin").split(separator: ":")
        for name in ["chromium", "chromium-browser"] {
            for folder in folders where FileManager.default.isExecutableFile(atPath: "\(folder)/\(name)") {
                return "\(folder)/\(name)"
            }
        }
        return nil
    }()

    /// Whether the browser tests run: when chromium is installed, and always
    /// under `make test` (which installs it and sets `FACEPIPE_REQUIRE_BROWSER=1`),
    /// where a missing browser must fail the test instead of skipping it.
    static let enabled = ProcessInfo.processInfo.environment["FACEPIPE_REQUIRE_BROWSER"] == "1" || path != nil

    /// The DOM of `page` after its scripts ran (`--dump-dom`).
    static func dumpDOM(_ page: URL) throws -> String {
        let browser = try #require(path, "chromium is not installed (scripts/install-system-deps.sh installs it)")
        let profile = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: profile) }
        // A browser that hangs must not hang the suite.
        let result = try ChildProcess.run(browser, ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                                                    "--user-data-dir=\(profile.path)", "--dump-dom", page.absoluteString],
                                          killingAfter: 120)
        try #require(result.status == 0, "chromium exited with \(result.status)")
        return String(decoding: result.output, as: UTF8.self)
    }

    /// The text of the element with `id` in a dumped DOM.
    static func text(ofID id: String, in dom: String) -> String? {
        guard let start = dom.range(of: "id=\"\(id)\""),
              let open = dom.range(of: ">", range: start.upperBound..<dom.endIndex),
              let close = dom.range(of: "<", range: open.upperBound..<dom.endIndex) else { return nil }
        return String(dom[open.upperBound..<close.lowerBound])
    }
}

@Suite(.enabled(if: Fixtures.modelsAvailable, "needs the models (make models)"),
       .enabled(if: ReportSample.available, "needs datasets/build/sample-bad*.tar (make sample)"),
       .enabled(if: Chromium.enabled, "needs chromium (apt-get install chromium)"))
struct ReportBrowserTests {
    @Test func theRenderedPageShowsTheManifestsCounts() async throws {
        let out = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: out) }
        try await ReportSample.run(into: out, workers: 2)
        let rows = try ManifestReadBack.check(out)
        let expected = ReportSample.counts(rows)
        let dom = try Chromium.dumpDOM(out.appendingPathComponent("report.html"))

        for status in RunReport.statuses {
            #expect(Chromium.text(ofID: "rows-\(status.replacingOccurrences(of: "_", with: "-"))", in: dom)
                    == String(expected.rows[status, default: 0]), "rows \(status)")
        }
        #expect(Chromium.text(ofID: "faces-kept", in: dom) == String(expected.kept))
        let outcomes = RunReport.outcomes.map { outcome in
            Int(Chromium.text(ofID: "entries-" + outcome.lowercased().split(whereSeparator: { !$0.isLetter && !$0.isNumber }).joined(separator: "-"), in: dom) ?? "")
        }
        #expect(outcomes.allSatisfy { $0 != nil }, "every outcome shown: \(outcomes)")
        #expect(outcomes.compactMap { $0 }.reduce(0, +) == expected.entries)
        let errorCount = rows.filter { $0["status"] == "error" }.count
        #expect(errorCount > 0 && dom.contains("archive unreadable, later entries lost"), "grouped errors shown")
        #expect(Chromium.text(ofID: "gallery-page", in: dom) == "page 1 of 1, \(expected.images) images")
        #expect(dom.components(separatedBy: "loading=\"lazy\"").count - 1 == expected.images, "one lazy image per output")
        #expect(dom.contains("<svg"), "histograms drawn")
    }
}
