import ArchiveIO
import Foundation
import Pipeline
import PipelineRunning
import Testing
import _TestSupport

/// Inputs that used to slip through: unreadable zip members, inputs that
/// never end, two inputs with one file name.
@Suite struct InputHazardTests {
    /// An encrypted or unsupported zip member is an entry that failed: an
    /// error row, exit status 1; the entries after it are processed.
    @Test func anEncryptedZipMemberGetsAnErrorRow() async throws {
        let parent = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: parent) }
        var zip = ZipBuilder()
        zip.add(name: "a.ppm", data: makePPM(background: 90, square: (x: 2, y: 2, side: 4)))
        zip.add(name: "secret.ppm", data: makePPM(background: 91, square: nil), encrypted: true)
        zip.add(name: "b.ppm", data: makePPM(background: 92, square: nil))
        let path = parent.appendingPathComponent("photos.zip")
        try Data(zip.bytes).write(to: path)

        let out = parent.appendingPathComponent("out")
        let summary = try await run(redSquarePipeline(), [.archive(path: path.path)], out: out)
        let rows = try manifestRows(out)
        #expect(rows.map { $0[1] } == ["a.ppm", "secret.ppm", "b.ppm"])
        let secret = try #require(rows.first { $0[1] == "secret.ppm" })
        #expect(secret[2] == "1" && secret[3] == "error")
        #expect(secret[4].hasPrefix("read: encrypted member"), "\(secret[4])")
        #expect(summary.failedEntries == 1 && summary.skipped.isEmpty)
        #expect(summary.exitStatus == .someEntriesFailed)
    }

    /// `/dev/zero` as an input: an empty archive, then zeros read (and
    /// hashed) only up to the entry limit; the run ends and says why the
    /// input has no SHA-256.
    @Test func anInputThatNeverEndsIsBounded() async throws {
        let parent = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: parent) }
        let out = parent.appendingPathComponent("out")
        let input = try RunInput.fromArgument("/dev/zero", maxEntryBytes: 1 << 20)
        let summary = try await run(redSquarePipeline(), [input], out: out)
        #expect(summary.entries == 0)
        let runJSON = try JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent("run.json"))) as? [String: Any]
        let described = try #require((runJSON?["inputs"] as? [[String: Any]])?.first)
        #expect(described["sha256"] == nil)
        #expect((described["error"] as? String)?.contains("follow the end of the archive") == true, "\(described)")
    }

    /// Two inputs named alike (`a/x.tar`, `b/x.tar`) keep apart in the
    /// manifest's `archive` column and under images/: the second is `x~1.tar`.
    @Test func twoInputsWithOneFileNameAreToldApart() async throws {
        let parent = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: parent) }
        let out = parent.appendingPathComponent("out")
        _ = try await run(redSquarePipeline(), [memoryInput("x.tar", sampleItems(archive: "x.tar", count: 2)),
                                                memoryInput("x.tar", sampleItems(archive: "x.tar", count: 2)),
                                                memoryInput("y.tar", sampleItems(archive: "y.tar", count: 1))], out: out)
        let rows = try manifestRows(out)
        #expect(Set(rows.map { $0[0] }) == ["x.tar", "x~1.tar", "y.tar"])
        for row in rows where !row[23].isEmpty {
            #expect(row[23].hasPrefix("images/\(row[0])/"), "the image folder is the archive value: \(row[23])")
        }
        #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent("images/x~1.tar").path))
    }
}
