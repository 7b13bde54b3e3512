import Crypto
import Foundation
import Pipeline
import PipelineRunning
import Pipelines
import Testing
import _TestSupport

private let sampleArchive = Fixtures.repositoryRoot.appendingPathComponent("datasets/build/sample.tar")
/// Present after `make sample`; `make test` builds it, so there it must exist.
private let sampleArchiveAvailable = ProcessInfo.processInfo.environment["FACEPIPE_REQUIRE_MODELS"] == "1"
    || FileManager.default.fileExists(atPath: sampleArchive.path)

/// The named pipelines on the sample archive with the real models and the
/// built-in engine, against recorded outputs in `Tests/Fixtures/golden/`:
/// the manifest (numbers compared with explicit tolerances, the rest
/// exactly) and the SHA-256 of every image and JSON file (exactly: outputs
/// are byte-identical on every CPU kind and for any worker count).
///
/// Recording: when a golden folder is missing, or with `RECORD_SNAPSHOTS=1`
/// in the environment, the test writes what this build produces and fails,
/// so a recording never passes silently. Review the diff, then commit it.
@Suite(.enabled(if: Fixtures.modelsAvailable, "needs the models (make models)"),
       .enabled(if: sampleArchiveAvailable, "needs datasets/build/sample.tar (make sample)"))
struct GoldenOutputTests {
    static let sample = sampleArchive

    /// Largest difference allowed per manifest column; any column not listed compares exactly.
    static let tolerances: [String: Double] = [
        "confidence": 1e-4, "x": 0.01, "y": 0.01, "w": 0.01, "h": 0.01,
        "roll": 0.01, "yaw": 0.01, "pitch": 0.01,
        "smiling": 1e-4, "left_eye_open": 1e-4, "right_eye_open": 1e-4, "quality": 1e-4,
    ]

    @Test(arguments: ["faces", "training-annotations", "whole-frame"])
    func outputsMatchTheRecording(_ name: String) async throws {
        let out = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: out) }
        let plan = try PipelineRegistry.builtIn.named(name).compile(modelsDirectory: Fixtures.model(""))
        let summary = try await PipelineRunner.run(plan, inputs: [.archive(path: Self.sample.path)],
                                                   configuration: RunConfiguration(outputDirectory: out, workers: 2),
                                                   toolVersion: "test")
        #expect(summary.failedEntries == 0)
        try ManifestReadBack.check(out)
        let manifest = try String(contentsOf: out.appendingPathComponent("manifest.csv"), encoding: .utf8)
        let hashes = try Self.outputHashes(out)

        let golden = Fixtures.url("golden/\(name)")
        let goldenManifest = golden.appendingPathComponent("manifest.csv")
        let goldenHashes = golden.appendingPathComponent("outputs.sha256")
        let record = ProcessInfo.processInfo.environment["RECORD_SNAPSHOTS"] == "1"
        if record || !FileManager.default.fileExists(atPath: goldenManifest.path) {
            try FileManager.default.createDirectory(at: golden, withIntermediateDirectories: true)
            try Data(manifest.utf8).write(to: goldenManifest)
            try Data(hashes.utf8).write(to: goldenHashes)
            Issue.record("recorded \(golden.path); review and commit it, then rerun without RECORD_SNAPSHOTS")
            return
        }
        let expected = parseCSV(try String(contentsOf: goldenManifest, encoding: .utf8))
        let actual = parseCSV(manifest)
        try #require(actual.first == expected.first, "manifest header")
        let columns = expected[0]
        #expect(actual.count == expected.count, "\(actual.count - 1) rows, recorded \(expected.count - 1)")
        for (rowNumber, (row, want)) in zip(actual, expected).enumerated().dropFirst() {
            #expect(row.count == columns.count, "row \(rowNumber) has \(row.count) fields")
            for (column, (value, wanted)) in zip(columns, zip(row, want)) where value != wanted {
                if let tolerance = Self.tolerances[column], let a = Double(value), let b = Double(wanted), abs(a - b) <= tolerance {
                    continue
                }
                Issue.record("row \(rowNumber) (\(row[1])) \(column): \(value), recorded \(wanted)")
            }
        }
        let recordedHashes = try String(contentsOf: goldenHashes, encoding: .utf8)
        let changed = Self.difference(hashes, recordedHashes)
        #expect(changed.isEmpty, "files that differ from the recording: \(changed.prefix(10))")
    }

    /// The other named pipelines' manifests read back (no recording: they are cheap to run).
    @Test(arguments: ["fast-boxes", "passport", "upright-png", "detect", "anonymize", "face-crops"])
    func manifestsReadBack(_ name: String) async throws {
        let out = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: out) }
        let plan = try PipelineRegistry.builtIn.named(name).compile(modelsDirectory: Fixtures.model(""))
        _ = try await PipelineRunner.run(plan, inputs: [.archive(path: Self.sample.path)],
                                         configuration: RunConfiguration(outputDirectory: out, workers: 2),
                                         toolVersion: "test")
        let rows = try ManifestReadBack.check(out)
        #expect(rows.count >= 43, "one row or more per entry of the sample archive")
    }

    /// "sha256  path" for every file under images/ and faces/, sorted by path.
    static func outputHashes(_ root: URL) throws -> String {
        try outputFiles(root).filter { $0.key.hasPrefix("images/") || $0.key.hasPrefix("faces/") }
            .sorted { $0.key < $1.key }
            .map { SHA256.hash(data: $0.value).map { String(format: "%02x", $0) }.joined() + "  " + $0.key + "\n" }
            .joined()
    }

    /// Paths whose lines differ between two listings.
    static func difference(_ a: String, _ b: String) -> [String] {
        let left = Set(a.split(separator: "\n")), right = Set(b.split(separator: "\n"))
        return left.symmetricDifference(right).map { String($0.split(separator: " ").last ?? "") }.sorted()
    }
}
