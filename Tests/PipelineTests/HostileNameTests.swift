import ArchiveIO
import CSV
import Foundation
import Pipeline
import PipelineRunning
import RunFolders
import Testing
import _TestSupport

/// Issue 35 rows 11–13: entry names that break CSV quoting, run as
/// spreadsheet formulas or drive a terminal.
struct HostileNameTests {
    /// Names with CR, LF, CR LF, quotes, commas, NUL, a quote before a
    /// combining accent (one Character to Swift), and formula starts.
    static let names = [
        "cr\rname.ppm", "lf\nname.ppm", "crlf\r\nname.ppm", "quote\"name.ppm", "comma,name.ppm", "nul\u{0}name.ppm",
        "accent\"\u{301}\r\n.ppm", "=HYPERLINK(\"http://x\",\"y\").ppm", "+1+2.ppm", "-2-3.ppm", "@SUM(1).ppm", "\ttab.ppm", "\rcr-first.ppm",
    ]
    /// Not UTF-8: the manifest shows it as the run names it (U+FFFD for the bad bytes).
    static let invalidUTF8: [UInt8] = Array("bad".utf8) + [0xFF, 0xC3] + Array(".ppm".utf8)

    @Test func hostileEntryNamesRoundTripThroughTheManifest() async throws {
        let out = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: out) }
        var items = Self.names.enumerated().map { i, name in
            entry("mem", i, name, makePPM(background: 80, square: (x: 2, y: 2, side: 5)))
        }
        let lossy = String(decoding: Self.invalidUTF8, as: UTF8.self)
        items.append(.entry(ArchiveEntry(archive: "mem", index: items.count, name: lossy, rawName: Self.invalidUTF8,
                                         data: makePPM(background: 80, square: (x: 2, y: 2, side: 5)))))
        let summary = try await PipelineRunner.run(try redSquarePipeline().compile(modelsDirectory: out), inputs: [memoryInput("mem", items)],
                                                   configuration: RunConfiguration(outputDirectory: out, workers: 2), toolVersion: "test")
        #expect(summary.writeFailure == nil)
        // Read back with CSV.swift (every row, its files and its per-image JSON checked).
        let rows = try ManifestReadBack.check(out)
        let expected = (Self.names + [lossy]).map(ManifestReadBack.spreadsheetSafe)
        #expect(rows.map { $0["entry"]! } == expected)
        #expect(rows.filter { $0["entry"]!.hasPrefix("'") }.count == 6)
        // The per-image JSON keeps the name as it is.
        let formula = try #require(rows.first { $0["entry"] == "'=HYPERLINK(\"http://x\",\"y\").ppm" })
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent(formula["faces_json"]!))) as? [String: Any]
        #expect(json?["entry"] as? String == "=HYPERLINK(\"http://x\",\"y\").ppm")

        // --resume rebuilds the manifest from the same rows: it reads back the same.
        let manifest = try Data(contentsOf: out.appendingPathComponent("manifest.csv"))
        let resumed = try await PipelineRunner.run(try redSquarePipeline().compile(modelsDirectory: out), inputs: [memoryInput("mem", items)],
                                                   configuration: RunConfiguration(outputDirectory: out, workers: 2, resume: true), toolVersion: "test")
        #expect(resumed.writeFailure == nil)
        #expect(try Data(contentsOf: out.appendingPathComponent("manifest.csv")) == manifest)
        #expect(try ManifestReadBack.check(out).map { $0["entry"]! } == expected)
    }

    // MARK: Row 13: terminal text

    @Test func terminalTextShowsEveryControlCharacterEscaped() {
        #expect(TerminalText.escaped("a\u{1B}]0;title\u{07}b") == "a\\u{1B}]0;title\\u{7}b")
        #expect(TerminalText.escaped("\u{1B}]52;c;ZWNobw==\u{07}\n\u{9B}2J\r\t\u{7F}\u{2028}\u{202E}")
                == "\\u{1B}]52;c;ZWNobw==\\u{7}\\n\\u{9B}2J\\r\\t\\u{7F}\\u{2028}\\u{202E}")
        #expect(TerminalText.escaped("photos/été 01.jpg \\ ok") == "photos/été 01.jpg \\ ok")
    }

    static let escapeName = "\u{1B}]0;pwned\u{07}\u{1B}[2J\u{1B}]52;c;ZWNobw==\u{07}\u{9B}31m.ppm"

    /// `facepipe report` prints the errors' example entries: escaped.
    @Test(.enabled(if: FacepipeProcess.available, "needs the facepipe binary"))
    func reportPrintsNamesWithTerminalEscapesEscaped() async throws {
        let out = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: out) }
        let items = [entry("mem", 0, Self.escapeName, Array("P6\n24 16\n255\n".utf8) + [1, 2, 3])]
        _ = try await PipelineRunner.run(try redSquarePipeline().compile(modelsDirectory: out), inputs: [memoryInput("mem", items)],
                                         configuration: RunConfiguration(outputDirectory: out, workers: 1), toolVersion: "test")
        let result = try ChildProcess.run(FacepipeProcess.binary.path, ["report", out.path])
        let printed = result.output
        #expect(result.status == 0)
        let text = String(decoding: printed, as: UTF8.self)
        #expect(text.contains("\\u{1B}]0;pwned\\u{7}"), "\(text)")
        #expect(!printed.contains(0x1B) && !text.unicodeScalars.contains("\u{9B}"), "a terminal escape printed raw")
    }

    /// `facepipe run` prints a failed entry's name on stderr: escaped.
    @Test(.enabled(if: FacepipeProcess.available && Fixtures.modelsAvailable, "needs the facepipe binary and the models"))
    func runPrintsNamesWithTerminalEscapesEscaped() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let tar = folder.appendingPathComponent("in.tar")
        let writer = try TarWriter(path: tar.path)
        try writer.add(path: "x" + Self.escapeName.replacingOccurrences(of: ".ppm", with: ".jpg"), data: [0xFF, 0xD8, 0xFF, 0xE0, 1, 2, 3])
        try writer.finish()
        let (status, stderr) = try FacepipeProcess.run(["run", "faces", tar.path, "--out", "out"], in: folder)
        #expect(status == 1, "\(stderr)")
        #expect(stderr.contains("\\u{1B}]0;pwned\\u{7}"), "\(stderr)")
        #expect(!stderr.unicodeScalars.contains("\u{1B}") && !stderr.unicodeScalars.contains("\u{9B}"), "a terminal escape printed raw")
    }
}
