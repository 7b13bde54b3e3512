#if canImport(Glibc)
import ArchiveIO
import Foundation
import Glibc
import Pipeline
import PipelineRunning
import Pipelines
import Testing
import _TestSupport
#endif

/// Folder inputs from a stranger: file names that are not UTF-8, and an
/// output folder inside the input folder.
@Suite struct FolderInputHazardTests {
    let png: [UInt8]
    let jpeg: [UInt8]

    init() throws {
        png = try Fixtures.bytes(Fixtures.url("codecs/photo-reference.png"))
        jpeg = try Fixtures.bytes(Fixtures.url("codecs/photo-baseline.jpg"))
    }

    /// Creates the file `name` (raw bytes, any of them but `/` and NUL)
    /// below `folder` with POSIX `open`, as a name that is not UTF-8 needs.
    static func write(_ data: [UInt8], rawName name: [UInt8], in folder: URL) throws {
        let path = Array(folder.path.utf8) + [0x2F] + name + [0]
        let fd = path.withUnsafeBufferPointer {
            open(UnsafeRawPointer($0.baseAddress!).assumingMemoryBound(to: CChar.self), O_WRONLY | O_CREAT | O_EXCL, 0o644)
        }
        try #require(fd >= 0, "open: \(String(cString: strerror(errno)))")
        defer { close(fd) }
        let written = data.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
        try #require(written == data.count)
    }

    static func makeFolder(rawName name: [UInt8], in folder: URL) throws {
        let path = Array(folder.path.utf8) + [0x2F] + name + [0]
        let made = path.withUnsafeBufferPointer {
            mkdir(UnsafeRawPointer($0.baseAddress!).assumingMemoryBound(to: CChar.self), 0o755)
        }
        try #require(made == 0, "mkdir: \(String(cString: strerror(errno)))")
    }

    /// Files named in Latin-1 (`café.png` as `caf\xE9.png`), a folder named
    /// with bytes that are not UTF-8, and a plain name: all processed, named
    /// in the outputs as the same raw names inside a tar are.
    @Test func filesWhoseNamesAreNotUTF8AreProcessedAndNamedAsInATar() async throws {
        let root = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let photos = root.appendingPathComponent("in/photos")
        try FileManager.default.createDirectory(at: photos, withIntermediateDirectories: true)
        let latin1: [UInt8] = Array("caf".utf8) + [0xE9] + Array(".png".utf8)
        let folderName: [UInt8] = [0xFF, 0xFE] + Array("dir".utf8)
        try Self.write(png, rawName: latin1, in: photos)
        try Self.makeFolder(rawName: folderName, in: photos)
        try Self.write(jpeg, rawName: folderName + Array("/b.jpg".utf8), in: photos)
        try Self.write(png, rawName: Array("plain.png".utf8), in: photos)

        try FileManager.default.createDirectory(at: root.appendingPathComponent("tar"), withIntermediateDirectories: true)
        let tarPath = root.appendingPathComponent("tar/photos").path
        let writer = try TarWriter(path: tarPath)
        // The folder's order: by the bytes of the relative paths.
        try writer.add(rawPath: latin1, data: png)
        try writer.add(rawPath: Array("plain.png".utf8), data: png)
        try writer.add(rawPath: folderName + Array("/b.jpg".utf8), data: jpeg)
        try writer.finish()

        let fromFolder = root.appendingPathComponent("out-folder"), fromTar = root.appendingPathComponent("out-tar")
        let folderSummary = try await run(Pipelines.uprightPNG, [try RunInput.fromArgument(photos.path)], out: fromFolder)
        let tarSummary = try await run(Pipelines.uprightPNG, [try RunInput.fromArgument(tarPath)], out: fromTar)
        #expect(folderSummary.skipped.isEmpty, "nothing skipped: \(folderSummary.skipped.first)")
        #expect(folderSummary.entries == 3 && folderSummary.failedEntries == 0)
        #expect(tarSummary.entries == 3 && tarSummary.failedEntries == 0)
        let images = { (files: [String: Data]) in files.filter { $0.key.hasPrefix("images/") } }
        let folderImages = images(try outputFiles(fromFolder)), tarImages = images(try outputFiles(fromTar))
        #expect(folderImages.count == 3)
        #expect(folderImages == tarImages, "the same output names and bytes as the tar's")
        #expect(folderImages.keys.contains { $0.hasPrefix("images/photos/caf%E9~") && $0.hasSuffix(".png.png") },
                "escaped as SafeOutputPath escapes a tar name: \(folderImages.keys.sorted())")
        #expect(try manifestRows(fromFolder) == (try manifestRows(fromTar)))
    }

    /// `run … photos --out photos/out`, run twice: neither run reads the
    /// output folder (its lock, its manifest, its images), so the second run
    /// processes the same entries as the first, not its own PNGs.
    @Test func anOutputFolderInsideTheInputIsNotRead() async throws {
        let root = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let photos = root.appendingPathComponent("photos")
        try FileManager.default.createDirectory(at: photos.appendingPathComponent("sub"), withIntermediateDirectories: true)
        try Data(png).write(to: photos.appendingPathComponent("a.png"))
        try Data(jpeg).write(to: photos.appendingPathComponent("sub/b.jpg"))
        let out = photos.appendingPathComponent("out")
        for attempt in 1...2 {
            let summary = try await run(Pipelines.uprightPNG, [try RunInput.fromArgument(photos.path)], out: out)
            #expect(summary.entries == 2, "run \(attempt): \(summary.line)")
            #expect(try manifestRows(out).map { $0[1] } == ["a.png", "sub/b.jpg"], "run \(attempt)")
            let skipped = summary.skipped.first.map(\.name)
            #expect(skipped.allSatisfy { $0.hasPrefix("out/") }, "run \(attempt): \(skipped)")
            #expect(skipped.contains("out/.lock") && skipped.contains("out/manifest.csv"), "run \(attempt): \(skipped)")
            #expect(summary.skipped.first.allSatisfy { $0.reason.contains("facepipe's own output") })
            if attempt == 2 { #expect(skipped.contains("out/images") && skipped.contains("out/run.json"), "\(skipped)") }
            #expect(!FileManager.default.fileExists(atPath: out.appendingPathComponent("images/photos/out").path),
                    "run \(attempt): no outputs of outputs")
        }
    }

    /// The output folder given as the input itself (`--out photos`): the
    /// photos are read, facepipe's own names beside them are not.
    @Test func anOutputFolderThatIsTheInputReadsOnlyTheInputsFiles() async throws {
        let root = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let photos = root.appendingPathComponent("photos")
        try FileManager.default.createDirectory(at: photos, withIntermediateDirectories: true)
        try Data(png).write(to: photos.appendingPathComponent("a.png"))
        for attempt in 1...2 {
            let summary = try await run(Pipelines.uprightPNG, [try RunInput.fromArgument(photos.path)], out: photos)
            #expect(try manifestRows(photos).map { $0[1] } == ["a.png"], "run \(attempt): \(summary.line)")
        }
    }

    /// A copy of a run's output folder without its hidden files (no `.lock`)
    /// inside the input: its manifest (facepipe's header) and run.json
    /// still mark it, and its images are not read.
    @Test func aCopiedOutputFolderWithoutItsLockIsNotRead() async throws {
        let root = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let photos = root.appendingPathComponent("photos")
        try FileManager.default.createDirectory(at: photos, withIntermediateDirectories: true)
        try Data(png).write(to: photos.appendingPathComponent("a.png"))
        let elsewhere = root.appendingPathComponent("elsewhere")
        _ = try await run(Pipelines.uprightPNG, [try RunInput.fromArgument(photos.path)], out: elsewhere)
        let copy = photos.appendingPathComponent("results")
        try FileManager.default.createDirectory(at: copy, withIntermediateDirectories: true)
        for name in ["manifest.csv", "run.json", "images"] {
            try FileManager.default.copyItem(at: elsewhere.appendingPathComponent(name), to: copy.appendingPathComponent(name))
        }
        let out = root.appendingPathComponent("out")
        let summary = try await run(Pipelines.uprightPNG, [try RunInput.fromArgument(photos.path)], out: out)
        #expect(try manifestRows(out).map { $0[1] } == ["a.png"], "\(summary.line)")
        #expect(summary.skipped.first.map(\.name) == ["results/images", "results/manifest.csv", "results/run.json"])
    }

    /// A folder of the user's that merely has a `.lock` (no manifest or
    /// run.json beside it), or a manifest without run.json or lock, is read as usual.
    @Test func aLockFileOrAManifestAloneDoesNotMakeAnOutputFolder() async throws {
        let root = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let photos = root.appendingPathComponent("photos")
        try FileManager.default.createDirectory(at: photos.appendingPathComponent("images"), withIntermediateDirectories: true)
        try Data(png).write(to: photos.appendingPathComponent("images/a.png"))
        try Data().write(to: photos.appendingPathComponent(".lock"))
        try FileManager.default.createDirectory(at: photos.appendingPathComponent("more/images"), withIntermediateDirectories: true)
        try Data(png).write(to: photos.appendingPathComponent("more/images/b.png"))
        try Data("archive,entry,index,status,error\r\n".utf8).write(to: photos.appendingPathComponent("more/manifest.csv"))
        let out = root.appendingPathComponent("out")
        let summary = try await run(Pipelines.uprightPNG, [try RunInput.fromArgument(photos.path)], out: out)
        #expect(try manifestRows(out).map { $0[1] } == ["images/a.png", "more/images/b.png"], "\(summary.line)")
    }

    /// A file swapped for a FIFO after facepipe decided what it is (a
    /// folder's file after its folder was listed; a video file named on the
    /// command line after its first bytes were read): refused as not a
    /// regular file at once, never waited on (opening a FIFO to read waits
    /// for a writer, which a hostile input need never bring).
    struct SwappedFileCase: Sendable, CustomStringConvertible {
        let description: String
        /// Reads the input at `root` until the swapped file's item, swapping
        /// it in (`swap`) when the read has come that far; returns what the
        /// source said of it.
        let read: @Sendable (_ root: URL, _ swap: @Sendable () throws -> Void) throws -> String
        /// The file below `root` that is swapped.
        let swapped: String
    }

    /// The video signature (an ISO media `ftyp` box) that makes a file a video input.
    static let videoHead: [UInt8] = [0, 0, 0, 0x18] + Array("ftypisom".utf8) + [UInt8](repeating: 0, count: 20)

    @Test(arguments: [
        SwappedFileCase(description: "a folder's file", read: { root, swap in
            let png = try Fixtures.bytes(Fixtures.url("codecs/photo-reference.png"))
            let photos = root.appendingPathComponent("photos")
            try FileManager.default.createDirectory(at: photos, withIntermediateDirectories: true)
            try Data(png).write(to: photos.appendingPathComponent("a.png"))
            try Data(png).write(to: photos.appendingPathComponent("b.png"))
            var source = try RunInput.fromArgument(photos.path).open()
            guard case .entry(let first)? = try source.next(), first.name == "a.png" else { return "a.png was not read first" }
            try swap()
            let item = try source.next()
            guard case let .skipped(_, name, reason)? = item else { return "not skipped: \(FolderInputHazardTests.kind(item))" }
            return "skipped \(name): \(reason)"
        }, swapped: "photos/b.png"),
        SwappedFileCase(description: "a video file", read: { root, swap in
            let clip = root.appendingPathComponent("clip.mp4")
            try Data(FolderInputHazardTests.videoHead).write(to: clip)
            let input = try RunInput.fromArgument(clip.path)
            try swap()
            do {
                var source = try input.open()
                return "read: \(FolderInputHazardTests.kind(try source.next()))"
            } catch {
                return "error: \(error)"
            }
        }, swapped: "clip.mp4"),
    ])
    func aFileSwappedForAFIFOIsRefusedNotWaitedOn(_ scene: SwappedFileCase) throws {
        let root = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let fifo = root.appendingPathComponent(scene.swapped).path
        let said = Self.promptly(seconds: 5, releasing: fifo) {
            Result {
                try scene.read(root) {
                    try FileManager.default.removeItem(atPath: fifo)
                    guard mkfifo(fifo, 0o600) == 0 else { throw CocoaError(.fileWriteUnknown) }
                }
            }
        }
        let text = try #require(said, "reading waited on the FIFO planted at \(scene.swapped) (released after 5 s)").get()
        #expect(text.contains("FIFO") && text.contains("not a regular file"), "\(text)")
    }

    /// What `item` is, without its bytes.
    static func kind(_ item: SourceItem?) -> String {
        switch item {
        case .entry(let entry)?: "the entry \(entry.name)"
        case let .skipped(_, name, reason)?: "skipped \(name): \(reason)"
        case let .unreadable(_, name, _, reason)?: "unreadable \(name): \(reason)"
        case .frame?: "a frame"
        case nil: "the end"
        }
    }

    /// `body`'s result, run on a thread of its own; nil when it has not
    /// returned within `seconds` (then `fifo` is opened for writing, again
    /// and again, which lets a reader waiting in `open` go on, until it returns).
    static func promptly<T: Sendable>(seconds: Double, releasing fifo: String, _ body: @escaping @Sendable () -> T) -> T? {
        let outcome = ThreadOutcome<T>()
        Thread {
            outcome.value = body()
            outcome.done.signal()
        }.start()
        if outcome.done.wait(timeout: .now() + seconds) == .success { return outcome.value }
        while outcome.done.wait(timeout: .now() + 0.05) == .timedOut {
            let writer = open(fifo, O_WRONLY | O_NONBLOCK | O_CLOEXEC)
            if writer >= 0 { close(writer) }
        }
        return nil
    }
}

/// What a thread returned, once it has (``FolderInputHazardTests/promptly(seconds:releasing:_:)``).
private final class ThreadOutcome<T>: @unchecked Sendable {
    // @unchecked: `value` is written once by the thread before `done` is signalled, and read only after.
    var value: T?
    let done = DispatchSemaphore(value: 0)
}
