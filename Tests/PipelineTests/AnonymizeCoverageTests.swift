import ArchiveIO
import Foundation
import Pipeline
import PipelineRunning
import Pipelines
import Testing
import _TestSupport

/// `anonymize` on the real crowd photos `make eval-crowd` is built from, at
/// their own size (datasets/sources), read back the way a user reads a run:
/// every face labelled in `benchmarks/eval/crowd-boxes.json` from 16 px wide
/// (what `anonymize` searches for) must lie at least 80 % inside the regions
/// the manifest says were painted over (`redact_x` … `redact_h`, corners
/// rounded by half the feather, as `Redact` draws them) — the rule of
/// `benchmarks/redaction/coverage.py`.
///
/// city.jpg's face at (673, 145), 16 × 19 px and half hidden behind a
/// neighbour's head, is one BlazeFace's pyramid scores 0.5–0.6 and YuNet-s
/// misses at its own grid: it was left unredacted until the pyramid's low
/// faces were re-read (`RecallReread`).
@Suite(.enabled(if: Fixtures.modelsAvailable, "needs the models (make models)"))
struct AnonymizeCoverageTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var photo: String
        var testDescription: String { photo }
    }

    static let cases = ["city.jpg", "t1.jpg", "bus.jpg"].map(Case.init)

    /// The labelled faces of `photo` at least `minWidth` px wide, [x, y, w, h].
    static func labelledFaces(_ photo: String, minWidth: Double) throws -> [[Double]] {
        let url = Fixtures.repositoryRoot.appendingPathComponent("benchmarks/eval/crowd-boxes.json")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
        let photos = try #require(document["photos"] as? [String: Any])
        let entry = try #require(photos[photo] as? [String: Any])
        let faces = try #require(entry["faces"] as? [[Double]])
        return faces.filter { $0.count == 4 && $0[2] >= minWidth }
    }

    /// A painted region: its rectangle and corner radius.
    struct Region {
        var x: Double, y: Double, width: Double, height: Double, radius: Double

        func contains(_ px: Double, _ py: Double) -> Bool {
            guard px >= x, px <= x + width, py >= y, py <= y + height else { return false }
            let r = min(radius, width / 2, height / 2)
            let dx = max(x + r - px, 0, px - (x + width - r)), dy = max(y + r - py, 0, py - (y + height - r))
            return dx * dx + dy * dy <= r * r
        }
    }

    /// The share of `box` inside the union of `regions`, sampled at the centres of a 64 × 64 grid.
    static func cover(_ box: [Double], by regions: [Region]) -> Double {
        let n = 64
        var hits = 0
        for j in 0..<n {
            let py = box[1] + (Double(j) + 0.5) * box[3] / Double(n)
            for i in 0..<n {
                let px = box[0] + (Double(i) + 0.5) * box[2] / Double(n)
                if regions.contains(where: { $0.contains(px, py) }) { hits += 1 }
            }
        }
        return Double(hits) / Double(n * n)
    }

    @Test(arguments: cases)
    func everyLabelledFaceFrom16PxIsPaintedOver(_ test: Case) async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let archive = folder.appendingPathComponent("crowd.tar").path
        let writer = try TarWriter(path: archive)
        try writer.add(path: test.photo, data: Fixtures.bytes(Fixtures.photo(test.photo)))
        try writer.finish()

        let plan = try Pipelines.anonymize.compile(modelsDirectory: Fixtures.model(""))
        let out = folder.appendingPathComponent("out")
        let summary = try await PipelineRunner.run(plan, inputs: [.archive(path: archive)],
                                                   configuration: RunConfiguration(outputDirectory: out, workers: 1),
                                                   toolVersion: "test")
        #expect(summary.failedEntries == 0)

        let table = parseCSV(try String(contentsOf: out.appendingPathComponent("manifest.csv"), encoding: .utf8))
        let header = try #require(table.first)
        func column(_ name: String) throws -> Int { try #require(header.firstIndex(of: name), "manifest column \(name)") }
        let (rx, ry, rw, rh, w) = (try column("redact_x"), try column("redact_y"), try column("redact_w"), try column("redact_h"), try column("w"))
        let feather = Double(Redact().feather)
        let regions = table.dropFirst().compactMap { row -> Region? in
            guard row.count == header.count, let x = Double(row[rx]), let y = Double(row[ry]), let width = Double(row[rw]),
                  let height = Double(row[rh]), let face = Double(row[w]) else { return nil }
            return Region(x: x, y: y, width: width, height: height, radius: feather * face / 2)
        }
        let faces = try Self.labelledFaces(test.photo, minWidth: 16)
        #expect(!faces.isEmpty)
        let uncovered = faces.map { ($0, Self.cover($0, by: regions)) }.filter { $0.1 < 0.8 }
        #expect(uncovered.isEmpty, "faces (x, y, w, h) under 80 % covered: \(uncovered.map { "\($0.0) at \(($0.1 * 100).rounded()) %" })")
    }
}
