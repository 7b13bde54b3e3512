import Foundation
import Pipeline
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// SIGTERM and a closed stderr, on the built binary.
@Suite(.enabled(if: FacepipeProcess.available)) struct SignalTests {
    /// SIGTERM mid-run: in-flight entries finish, manifest and run.json are
    /// written, the message is on stderr, exit 143; `--resume` then gives
    /// the bytes of an uninterrupted run.
    @Test func sigtermStopsCleanlyAndResumeIsByteIdentical() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let tar = try PNGTar(sides: Array(repeating: 40, count: 12), in: folder)
        let out = folder.appendingPathComponent("out"), reference = folder.appendingPathComponent("reference")

        // One worker: entry k is written when entry k + 1 is read, so rows
        // appear while the stream is held back after entry 5.
        let child = try FacepipeProcess.start(["run", "upright-png", "-", "--out", out.path, "-j", "1", "--quiet"],
                                              in: folder, feedsStandardInput: true)
        try child.send(Array(tar.bytes[..<tar.entryOffsets[6]]))
        let fourWritten = await FacepipeProcess.waitUntil { ((try? manifestRows(out))?.count ?? 0) >= 4 }
        #expect(fourWritten, "the run wrote entries before the signal; stderr: \(child.standardError)")
        child.signal(SIGTERM)
        let announced = await FacepipeProcess.waitUntil { child.standardError.contains("terminated (SIGTERM)") }
        #expect(announced, "stderr: \(child.standardError)")
        try child.send(Array(tar.bytes[tar.entryOffsets[6]...]))
        child.closeInput()

        #expect(child.wait() == 143, "stderr: \(child.standardError)")
        #expect(child.standardError.contains("INTERRUPTED"))
        let rows = try manifestRows(out)
        #expect(rows.count >= 4 && rows.count < 12, "stopped mid-run with whole rows: \(rows.count)")
        let runJSON = try JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent("run.json"))) as? [String: Any]
        #expect((runJSON?["summary"] as? [String: Any])?["interrupted"] as? Bool == true)

        let resumed = try FacepipeProcess.run(["run", "upright-png", "-", "--out", out.path, "--resume", "--quiet"],
                                              in: folder, input: tar.bytes)
        #expect(resumed.status == 0, "\(resumed.stderr)")
        let whole = try FacepipeProcess.run(["run", "upright-png", "-", "--out", reference.path, "--quiet"],
                                            in: folder, input: tar.bytes)
        #expect(whole.status == 0, "\(whole.stderr)")
        let resumedFiles = try outputFiles(out), referenceFiles = try outputFiles(reference)
        #expect(resumedFiles.count == 15, "12 images, the manifest, skipped.csv and report.html")
        #expect(resumedFiles == referenceFiles)
    }

    /// A closed stderr (`facepipe run … 2>&1 | head`) neither kills the run
    /// (SIGPIPE is ignored) nor stops it: progress stops, outputs complete.
    @Test func aClosedStandardErrorDoesNotKillTheRun() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let tar = try PNGTar(sides: [24, 24, 24], in: folder)
        let input = folder.appendingPathComponent("in.tar")
        try Data(tar.bytes).write(to: input)
        let out = folder.appendingPathComponent("out")
        // A pipe with no reader at all: every write to it fails with EPIPE (or SIGPIPE).
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        close(ends[0])
        _ = fcntl(ends[1], F_SETFD, FD_CLOEXEC)
        let child = try FacepipeProcess.start(["run", "upright-png", input.path, "--out", out.path], in: folder,
                                              standardError: ends[1])
        close(ends[1])
        #expect(child.wait() == 0, "not killed by SIGPIPE (141)")
        #expect(try manifestRows(out).count == 3)
        #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent("run.json").path))
    }

    @Test func anEmptyOutputFolderNameIsAUsageError() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let tar = try PNGTar(sides: [8], in: folder)
        let input = folder.appendingPathComponent("in.tar")
        try Data(tar.bytes).write(to: input)
        let result = try FacepipeProcess.run(["run", "upright-png", input.path, "--out", ""], in: folder)
        #expect(result.status == 2)
        #expect(result.stderr.contains("--out"))
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("manifest.csv").path),
                "nothing written into the current folder")
    }
}
