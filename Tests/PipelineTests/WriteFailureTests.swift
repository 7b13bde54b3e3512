import Foundation
import Pipeline
import PipelineRunning
import Testing

/// A write that fails mid-run stops the run with a one-line message naming
/// the path and the OS error, exit status 3, consistent outputs marked
/// incomplete; `--resume` after the cause is gone finishes it.
@Suite struct WriteFailureTests {
    /// Three entries at the top, then three in `sub/`.
    static func items() -> [SourceItem] {
        (0..<6).map { i in
            entry("a.tar", i, i < 3 ? "top\(i).ppm" : "sub/img\(i).ppm",
                  makePPM(background: UInt8(40 + i), square: (x: i, y: 2, side: 4)))
        }
    }

    @Test func anUnwritablePathStopsTheRunConsistentlyAndResumeFinishesIt() async throws {
        let parent = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: parent) }
        let out = parent.appendingPathComponent("out"), elsewhere = parent.appendingPathComponent("elsewhere")
        let reference = parent.appendingPathComponent("reference")
        try FileManager.default.createDirectory(at: elsewhere, withIntermediateDirectories: true)
        // faces/a.tar/sub is a link: the JSON of entry 3 cannot be written.
        let link = out.appendingPathComponent("faces/a.tar/sub")
        try FileManager.default.createDirectory(at: link.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: elsewhere)

        // --resume: a folder of facepipe's names without run.json is written into, not refused.
        let failed = try await run(redSquarePipeline(), [memoryInput("a.tar", Self.items())], out: out, resume: true)
        let failure = try #require(failed.writeFailure)
        #expect(failure.contains(out.path + "/faces/a.tar/sub/img3.ppm.json"), "names the path: \(failure)")
        #expect(failure.contains("symbolic link"), "says why: \(failure)")
        #expect(!failure.contains("\n") && !failure.contains("NSCocoaErrorDomain"))
        #expect(failed.exitStatus == .writeFailed)
        #expect(failed.exitStatus.rawValue == 3)
        #expect(try manifestRows(out).map { $0[1] } == ["top0.ppm", "top1.ppm", "top2.ppm"], "only entries written whole")
        #expect(failed.entries == 3, "counted as the manifest lists them")
        let runJSON = try JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent("run.json"))) as? [String: Any]
        let summary = try #require(runJSON?["summary"] as? [String: Any])
        #expect(summary["interrupted"] as? Bool == true)
        #expect((summary["writeFailure"] as? String)?.contains("faces/a.tar/sub") == true)
        #expect(OutputLinkTests.listing(elsewhere).isEmpty)

        try FileManager.default.removeItem(at: link)
        let resumed = try await run(redSquarePipeline(), [memoryInput("a.tar", Self.items())], out: out, resume: true)
        #expect(resumed.writeFailure == nil && !resumed.interrupted)
        #expect(resumed.resumedEntries == 3)
        _ = try await run(redSquarePipeline(), [memoryInput("a.tar", Self.items())], out: reference)
        #expect(try outputFiles(out) == outputFiles(reference))
    }

    /// A file size limit (`ulimit -f`) makes the large image's write fail
    /// with EFBIG: exit 3 and the one-line message, on the built binary.
    @Test(.enabled(if: FacepipeProcess.available))
    func aFullDiskExitsThreeAndResumeFinishes() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        // 4 small images, one of 600 × 600 (a 1 MB PNG), two small.
        let tar = try PNGTar(sides: [32, 32, 32, 32, 600, 32, 32], in: folder)
        let input = folder.appendingPathComponent("in.tar")
        try Data(tar.bytes).write(to: input)
        let out = folder.appendingPathComponent("out"), reference = folder.appendingPathComponent("reference")

        // bash counts ulimit -f in KiB: files up to 256 KiB.
        let limited = try FacepipeProcess.start(
            ["-c", "ulimit -f 256 && exec \"$0\" \"$@\"", FacepipeProcess.binary.path,
             "run", "upright-png", input.path, "--out", out.path, "--quiet", "-j", "1"],
            executable: URL(fileURLWithPath: "/bin/bash"), in: folder)
        #expect(limited.wait() == 3, "stderr: \(limited.standardError)")
        let message = limited.standardError.split(separator: "\n").first { $0.hasPrefix("facepipe: error:") } ?? ""
        #expect(message.contains(out.path + "/images/in.tar/img04.png.png") && message.contains("File too large"),
                "one line naming the path and the OS error: \(limited.standardError)")
        #expect(!limited.standardError.contains("NSCocoaErrorDomain"))
        #expect(try manifestRows(out).count == 4, "the four entries before it")

        let resumed = try FacepipeProcess.run(["run", "upright-png", input.path, "--out", out.path, "--resume", "--quiet"], in: folder)
        #expect(resumed.status == 0, "\(resumed.stderr)")
        let whole = try FacepipeProcess.run(["run", "upright-png", input.path, "--out", reference.path, "--quiet"], in: folder)
        #expect(whole.status == 0, "\(whole.stderr)")
        #expect(try outputFiles(out) == outputFiles(reference))
    }

    /// With `--output-tar` the tar cannot be completed: its partial file is
    /// removed and the manifest lists no entries (the run wrote no finished tar).
    @Test(.enabled(if: FacepipeProcess.available))
    func aFullDiskWithAnOutputTarLeavesNoTarAndNoRows() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let tar = try PNGTar(sides: [32, 32, 600, 32], in: folder)
        let input = folder.appendingPathComponent("in.tar")
        try Data(tar.bytes).write(to: input)
        let out = folder.appendingPathComponent("out")
        let limited = try FacepipeProcess.start(
            ["-c", "ulimit -f 256 && exec \"$0\" \"$@\"", FacepipeProcess.binary.path,
             "run", "upright-png", input.path, "--out", out.path, "--output-tar", "--quiet"],
            executable: URL(fileURLWithPath: "/bin/bash"), in: folder)
        #expect(limited.wait() == 3, "stderr: \(limited.standardError)")
        #expect(limited.standardError.contains("outputs/000000.tar.partial") && limited.standardError.contains("File too large"),
                "\(limited.standardError)")
        #expect(try manifestRows(out).isEmpty)
        for name in ["outputs/000000.tar", "outputs/000000.tar.partial", "outputs.tar"] {
            #expect(!FileManager.default.fileExists(atPath: out.appendingPathComponent(name).path), "\(name)")
        }
        let runJSON = try JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent("run.json"))) as? [String: Any]
        #expect(((runJSON?["summary"] as? [String: Any])?["writeFailure"] as? String)?.contains("manifest lists no entries") == true)
    }
}
