#if canImport(Glibc)
import Foundation
import Glibc
import Pipeline
import PipelineRunning
import Testing
#endif

/// Links planted inside the output folder never carry a write or a removal
/// outside it.
@Suite struct OutputLinkTests {
    /// Every file below `folder`, by relative path.
    static func listing(_ folder: URL) -> [String] {
        (FileManager.default.enumerator(atPath: folder.path)?.allObjects as? [String] ?? []).sorted()
    }

    /// `parent/out`, `parent/elsewhere` (a folder holding `keep.txt`), and
    /// `parent/precious.txt`: what planted links point at.
    struct Scene {
        let parent: URL
        var out: URL { parent.appendingPathComponent("out") }
        var elsewhere: URL { parent.appendingPathComponent("elsewhere") }
        var precious: URL { parent.appendingPathComponent("precious.txt") }

        init() throws {
            parent = try temporaryFolder()
            try FileManager.default.createDirectory(at: elsewhere.appendingPathComponent("done"), withIntermediateDirectories: true)
            try Data("keep".utf8).write(to: elsewhere.appendingPathComponent("done/keep.txt"))
            try Data("keep me".utf8).write(to: precious)
        }

        func plant(_ name: String, to target: URL) throws {
            let link = out.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: link.deletingLastPathComponent(), withIntermediateDirectories: true)
            try FileManager.default.createSymbolicLink(at: link, withDestinationURL: target)
        }

        /// Nothing outside `out` changed.
        func expectOutsideUntouched(_ comment: Comment? = nil) throws {
            #expect(OutputLinkTests.listing(elsewhere) == ["done", "done/keep.txt"], comment)
            #expect(try String(contentsOf: precious, encoding: .utf8) == "keep me", comment)
        }

        func isRegularFile(_ name: String) -> Bool {
            let attributes = try? FileManager.default.attributesOfItem(atPath: out.appendingPathComponent(name).path)
            return attributes?[.type] as? FileAttributeType == .typeRegular
        }
    }

    static func input() -> RunInput { memoryInput("a.tar", sampleItems(archive: "a.tar", count: 6)) }

    @Test(arguments: ["images", "images/a.tar", "faces"])
    func aLinkedFolderStopsTheWriteAndNothingIsWrittenThrough(_ planted: String) async throws {
        let scene = try Scene()
        defer { try? FileManager.default.removeItem(at: scene.parent) }
        try scene.plant(planted, to: scene.elsewhere)

        // --resume: a folder of facepipe's names without run.json is written into, not refused.
        let summary = try await run(redSquarePipeline(), [Self.input()], out: scene.out, resume: true)
        #expect(summary.exitStatus == .writeFailed)
        #expect(summary.writeFailure?.contains("symbolic link") == true, "\(summary.writeFailure ?? "")")
        try scene.expectOutsideUntouched("nothing written through \(planted)")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: scene.out.appendingPathComponent(planted).path)
                == scene.elsewhere.path, "the link itself is left alone")
    }

    /// A link at one of facepipe's file names, planted between two runs, is
    /// replaced by the file, never written through (a link at the single
    /// output tar of facepipe before numbered tars is removed).
    @Test(arguments: ["manifest.csv", "run.json", "outputs/000000.tar", "outputs/000000.tar.partial", "outputs.tar"])
    func aLinkAtAFacepipeFileNameIsReplaced(_ name: String) async throws {
        let scene = try Scene()
        defer { try? FileManager.default.removeItem(at: scene.parent) }
        let tar = name.hasPrefix("outputs")
        _ = try await run(redSquarePipeline(), [Self.input()], out: scene.out, outputTar: tar)
        try? FileManager.default.removeItem(at: scene.out.appendingPathComponent(name))
        try scene.plant(name, to: scene.precious)
        // Without a readable run.json only --resume writes into the folder.
        let summary = try await run(redSquarePipeline(), [Self.input()], out: scene.out, resume: name == "run.json",
                                    outputTar: tar)
        #expect(summary.writeFailure == nil)
        try scene.expectOutsideUntouched()
        if name.hasSuffix(".partial") || name == "outputs.tar" {
            #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: scene.out.appendingPathComponent(name).path)) == nil)
            #expect(!FileManager.default.fileExists(atPath: scene.out.appendingPathComponent(name).path))
            #expect(scene.isRegularFile("outputs/000000.tar"))
        } else {
            #expect(scene.isRegularFile(name))
        }
    }

    @Test func aHardLinkAtTheManifestIsNotWrittenThrough() async throws {
        let scene = try Scene()
        defer { try? FileManager.default.removeItem(at: scene.parent) }
        try FileManager.default.createDirectory(at: scene.out, withIntermediateDirectories: true)
        #expect(link(scene.precious.path, scene.out.appendingPathComponent("manifest.csv").path) == 0)
        // --resume: a manifest without run.json is written into, not refused.
        _ = try await run(redSquarePipeline(), [Self.input()], out: scene.out, resume: true)
        try scene.expectOutsideUntouched()
        #expect(try manifestRows(scene.out).count > 0)
    }

    @Test func aLinkAtAnImageNameIsReplacedNotWrittenThrough() async throws {
        let scene = try Scene()
        defer { try? FileManager.default.removeItem(at: scene.parent) }
        _ = try await run(redSquarePipeline(), [memoryInput("a.tar", sampleItems(archive: "a.tar", count: 2))], out: scene.out)
        let written = try #require(Self.listing(scene.out).first { $0.hasPrefix("images/a.tar/") && $0.hasSuffix(".ppm") })
        try FileManager.default.removeItem(at: scene.out.appendingPathComponent(written))
        try scene.plant(written, to: scene.precious)

        _ = try await run(redSquarePipeline(), [memoryInput("a.tar", sampleItems(archive: "a.tar", count: 2))], out: scene.out,
                          recompute: .everything)
        try scene.expectOutsideUntouched()
        #expect(scene.isRegularFile(written), "the link was replaced by the image")
    }

    /// `--overwrite` removes facepipe's names; a link among them is removed
    /// itself, never followed (`DIR/.cache → /elsewhere` keeps `/elsewhere/done`).
    @Test(arguments: [".cache", "images", "faces", "manifest.csv"])
    func overwriteRemovesALinkNotWhatItPointsAt(_ planted: String) async throws {
        let scene = try Scene()
        defer { try? FileManager.default.removeItem(at: scene.parent) }
        _ = try await run(redSquarePipeline(label: "first"), [Self.input()], out: scene.out)
        try FileManager.default.removeItem(at: scene.out.appendingPathComponent(planted))
        try scene.plant(planted, to: planted == "manifest.csv" ? scene.precious : scene.elsewhere)

        let summary = try await run(redSquarePipeline(label: "second"), [Self.input()], out: scene.out, overwrite: true)
        #expect(summary.writeFailure == nil)
        try scene.expectOutsideUntouched()
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: scene.out.appendingPathComponent(planted).path)) == nil)
    }

    /// A link at the lock's name refuses the run: the lock is never taken through it.
    @Test func aLinkAtTheLockRefusesTheRun() async throws {
        let scene = try Scene()
        defer { try? FileManager.default.removeItem(at: scene.parent) }
        try scene.plant(".lock", to: scene.precious)
        await #expect(throws: PipelineError.self) {
            _ = try await run(redSquarePipeline(), [Self.input()], out: scene.out)
        }
        try scene.expectOutsideUntouched()
    }

    /// Temporary files a killed run left (`.<name>.<UUID>.tmp`) are removed
    /// by the next run; other files are not facepipe's and stay.
    @Test func orphanTemporaryFilesAreRemoved() async throws {
        let scene = try Scene()
        defer { try? FileManager.default.removeItem(at: scene.parent) }
        _ = try await run(redSquarePipeline(), [Self.input()], out: scene.out)
        let folder = scene.out.appendingPathComponent("images/a.tar/dir")
        let orphan = folder.appendingPathComponent(".img0.ppm.ppm.\(UUID().uuidString).tmp")
        let notOurs = folder.appendingPathComponent("notes.tmp")
        try Data("half".utf8).write(to: orphan)
        try Data("mine".utf8).write(to: notOurs)

        _ = try await run(redSquarePipeline(), [Self.input()], out: scene.out, resume: true)
        #expect(!FileManager.default.fileExists(atPath: orphan.path))
        #expect(FileManager.default.fileExists(atPath: notOurs.path))
    }
}
