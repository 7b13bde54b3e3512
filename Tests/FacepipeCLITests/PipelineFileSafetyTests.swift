import FacepipeCLI
import Foundation
import ImageCodecs
import ImageCore
import Testing
import _TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// Pipeline files against someone else, through the built `facepipe`
/// (issue 50, rows 3 and 4): a Swift file a shell glob reaches never runs
/// code; a cache someone else prepared, could write or swapped a tool in
/// is refused or rebuilt, never run; the cache is made the caller's alone
/// under `umask 000`; names and paths are shown escaped.
@Suite(.enabled(if: PipelineFileProcess.available, "build the facepipe binary first"), .serialized)
struct PipelineFileSafetyTests {
    /// A folder with `photo.png`, `Probe.swift` (a pipeline that needs no
    /// model) and `marker`'s path, which planted code creates.
    struct Scene {
        let folder: URL
        var photo: URL { folder.appendingPathComponent("photo.png") }
        var probe: URL { folder.appendingPathComponent("Probe.swift") }
        var marker: URL { folder.appendingPathComponent("planted-code-ran") }
        var cacheBase: URL { folder.appendingPathComponent("cache") }
        var pipelines: URL { cacheBase.appendingPathComponent("facepipe/pipelines") }

        init() throws {
            folder = FileManager.default.temporaryDirectory.appendingPathComponent("facepipe-pipeline-safety-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let png = try FastPNGEncoder.encode(RGBImage(width: 64, height: 48, pixels: [UInt8](repeating: 128, count: 64 * 48 * 3)))
            try Data(png).write(to: photo)
            try Data(Self.source(name: "probe").utf8).write(to: probe)
        }

        /// A pipeline file with a stage of its own; `sideEffect` runs when the
        /// tool first reads `pipeline` (when it is asked its name).
        static func source(name: String, sideEffect: String = "") -> String {
            """
            import Foundation
            import ImageCore
            import Pipeline

            struct WholePictureFace: Stage {
                var definition: StageDefinition { StageDefinition("whole-picture-face") }
                func process(_ frame: Frame<Phase.Upright>, context: StageContext) throws -> Frame<Phase.Detected> {
                    var detected = frame.advanced(to: Phase.Detected.self)
                    detected.record.detectionRan = true
                    detected.record.faces = [FaceRecord(face: 0, confidence: 1,
                                                        box: Rect(x: 0, y: 0, width: Float(frame.image.width), height: Float(frame.image.height)))]
                    return detected
                }
            }

            let pipeline: Pipeline = {
                \(sideEffect)
                return Pipeline("\(name)") {
                    Decode()
                    Orient()
                    WholePictureFace()
                    Annotate([])
                    WriteOutputs(images: .none)
                }
            }()

            """
        }

        func run(_ arguments: [String], in directory: URL? = nil, cache: URL? = nil, umask: String? = nil) throws -> PipelineFileProcess.Result {
            try PipelineFileProcess.run(arguments, in: directory ?? folder, cacheBase: cache ?? cacheBase, umask: umask)
        }

        /// `run --pipeline Probe.swift photo.png --out NAME` (the form every facepipe knows).
        func runProbe(out: String, umask: String? = nil) throws -> PipelineFileProcess.Result {
            try run(["run", "--pipeline", probe.path, photo.path, "--out", folder.appendingPathComponent(out).path, "--quiet"], umask: umask)
        }

        /// The cache entries (folders named by a 64-digit key).
        func entries() -> [URL] {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: pipelines.path)) ?? []
            return names.filter { $0.count == 64 && $0.allSatisfy(\.isHexDigit) }.sorted().map { pipelines.appendingPathComponent($0) }
        }

        func remove() { try? FileManager.default.removeItem(at: folder) }
    }

    // MARK: - Row 4: a file a shell glob reaches never runs code

    enum GlobForm: String, CaseIterable, Sendable {
        /// `facepipe run dl/* --out o`
        case runFromParent
        /// `cd dl; facepipe run * --out ../o`
        case runInsideFolder
        /// `cd dl; facepipe describe *` (the folder holding only the file)
        case describeInsideFolder
    }

    @Test(arguments: GlobForm.allCases)
    func aSwiftFileAShellGlobReachesNeverRuns(_ form: GlobForm) throws {
        let scene = try Scene()
        defer { scene.remove() }
        let downloads = scene.folder.appendingPathComponent("dl")
        try FileManager.default.createDirectory(at: downloads, withIntermediateDirectories: true)
        let sideEffect = "FileManager.default.createFile(atPath: \"\(scene.marker.path)\", contents: Data())"
        try Data(Scene.source(name: "evil", sideEffect: sideEffect).utf8).write(to: downloads.appendingPathComponent("0evil.swift"))
        if form != .describeInsideFolder { try FileManager.default.copyItem(at: scene.photo, to: downloads.appendingPathComponent("photo.png")) }
        // What the shell hands facepipe for the glob: the folder's names, sorted.
        let glob = try FileManager.default.contentsOfDirectory(atPath: downloads.path).sorted()
        let result: PipelineFileProcess.Result
        switch form {
        case .runFromParent:
            result = try scene.run(["run"] + glob.map { "dl/" + $0 } + ["--out", "o"])
        case .runInsideFolder:
            result = try scene.run(["run"] + glob + ["--out", "../o"], in: downloads)
        case .describeInsideFolder:
            result = try scene.run(["describe"] + glob, in: downloads)
        }
        #expect(!FileManager.default.fileExists(atPath: scene.marker.path), "\(form): the planted file's code ran")
        #expect(result.status == 2, "\(form): exit \(result.status): \(result.stderr)")
        #expect(result.stderr.contains("0evil.swift") && result.stderr.contains("--pipeline"),
                "\(form): the refusal names the file and the way to compile one: \(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: scene.folder.appendingPathComponent("o").path), "\(form): --out was created")
        #expect(scene.entries().isEmpty, "\(form): something was compiled into the cache")
    }

    /// The rule is in `run --help` and `describe --help`.
    @Test(arguments: ["run", "describe"])
    func theRuleIsInTheHelp(_ verb: String) throws {
        let scene = try Scene()
        defer { scene.remove() }
        let result = try scene.run([verb, "--help"])
        let help = result.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(result.status == 0)
        #expect(help.contains(verb == "run" ? "A Swift file is compiled only when it follows --pipeline" : "a Swift file is compiled only after --pipeline"),
                "\(help)")
    }

    // MARK: - Row 3: the cache is the caller's alone

    enum Planted: String, CaseIterable, Sendable {
        /// Another user made `facepipe/pipelines` in a shared (sticky, world-writable) folder.
        case anotherUsersFolders
        /// The caller's own folders, left writable by all (made under `umask 000`).
        case worldWritableFolders
        /// `facepipe` is a link to another user's folder.
        case linkToAnotherUsersFolder
    }

    @Test(.enabled(if: geteuid() == 0, "chown needs root"), arguments: Planted.allCases)
    func aCacheSomeoneElseCouldWriteIsRefusedBeforeAnythingRuns(_ planted: Planted) throws {
        let scene = try Scene()
        defer { scene.remove() }
        let shared = scene.cacheBase
        try FileManager.default.createDirectory(at: shared, withIntermediateDirectories: true)
        #expect(chmod(shared.path, 0o1777) == 0)
        let facepipe = shared.appendingPathComponent("facepipe")
        let named: URL
        switch planted {
        case .anotherUsersFolders, .worldWritableFolders:
            try FileManager.default.createDirectory(at: scene.pipelines, withIntermediateDirectories: true)
            for folder in [facepipe, scene.pipelines] {
                #expect(chmod(folder.path, 0o777) == 0)
                if planted == .anotherUsersFolders { #expect(chown(folder.path, 65534, 65534) == 0) }
            }
            named = facepipe
        case .linkToAnotherUsersFolder:
            let theirs = scene.folder.appendingPathComponent("theirs")
            try FileManager.default.createDirectory(at: theirs.appendingPathComponent("pipelines"), withIntermediateDirectories: true)
            #expect(chown(theirs.path, 65534, 65534) == 0 && chown(theirs.appendingPathComponent("pipelines").path, 65534, 65534) == 0)
            try FileManager.default.createSymbolicLink(at: facepipe, withDestinationURL: theirs)
            named = facepipe
        }
        let result = try scene.runProbe(out: "o")
        #expect(result.status == 2, "\(planted): exit \(result.status): \(result.stderr)")
        let reason = switch planted {
        case .anotherUsersFolders: "is owned by uid 65534, not by you (uid 0)"
        case .worldWritableFolders: "is writable by group or others (mode 777)"
        case .linkToAnotherUsersFolder: "is a symbolic link"
        }
        #expect(result.stderr.contains("\(named.path) \(reason)"), "\(planted): \(result.stderr)")
        #expect(scene.entries().isEmpty && !FileManager.default.fileExists(atPath: scene.folder.appendingPathComponent("o").path),
                "\(planted): compiled or ran")
    }

    /// The attack of row 3 after the cache is made: the tool of an entry
    /// swapped for a program and the entry's SHA-256 recomputed (as anyone
    /// able to write there could): the program never runs, the file is
    /// built again.
    @Test func aSwappedToolWithARecomputedSealNeverRuns() throws {
        let scene = try Scene()
        defer { scene.remove() }
        let first = try scene.runProbe(out: "o1")
        try #require(first.status == 0, "\(first.stderr)")
        let entry = try #require(scene.entries().first)
        let tool = entry.appendingPathComponent("pipeline")
        let script = Data("#!/bin/sh\ntouch '\(scene.marker.path)'\n".utf8)
        try script.write(to: tool)
        #expect(chmod(tool.path, 0o700) == 0)
        let name = try Data(contentsOf: entry.appendingPathComponent("name"))
        let digest = try Self.sha256(script + Data([0]) + name, in: scene.folder)
        for seal in ["sha256", "seal"] {
            let file = entry.appendingPathComponent(seal)
            try? FileManager.default.removeItem(at: file)
            try Data((digest + "\n").utf8).write(to: file)
            #expect(chmod(file.path, 0o600) == 0)
        }
        let second = try scene.runProbe(out: "o2")
        #expect(!FileManager.default.fileExists(atPath: scene.marker.path), "the swapped tool ran")
        #expect(second.status == 0, "\(second.stderr)")
        #expect(second.stderr.contains("facepipe: compiling"), "the entry was not built again: \(second.stderr)")
        #expect(try Data(contentsOf: tool) != script)
    }

    /// The SHA-256 of `bytes` in hex, as `sha256sum` prints it (what anyone can compute).
    static func sha256(_ bytes: Data, in folder: URL) throws -> String {
        let file = folder.appendingPathComponent("to-hash-\(UUID().uuidString)")
        try bytes.write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let text = String(decoding: try ChildProcess.run("/usr/bin/sha256sum", [file.path]).output, as: UTF8.self)
        return String(text.prefix(64))
    }

    /// After a build, an entry or file of it that someone else owns or may
    /// write stops the next run (exit 2, naming it); put back, the cache is
    /// used again.
    @Test(.enabled(if: geteuid() == 0, "chown needs root"))
    func anEntrySomeoneElseCouldWriteIsRefused() throws {
        let scene = try Scene()
        defer { scene.remove() }
        let first = try scene.runProbe(out: "o")
        try #require(first.status == 0, "\(first.stderr)")
        let entry = try #require(scene.entries().first)
        struct Tamper { let path: URL; let change: () -> Int32; let undo: () -> Int32; let reason: String }
        let tool = entry.appendingPathComponent("pipeline"), name = entry.appendingPathComponent("name")
        let key = scene.pipelines.appendingPathComponent("seal-key")
        let tampers = [
            Tamper(path: tool, change: { chmod(tool.path, 0o770) }, undo: { chmod(tool.path, 0o700) },
                   reason: "is writable by group or others (mode 770)"),
            Tamper(path: tool, change: { chmod(tool.path, 0o702) }, undo: { chmod(tool.path, 0o700) },
                   reason: "is writable by group or others (mode 702)"),
            Tamper(path: entry, change: { chown(entry.path, 65534, 65534) }, undo: { chown(entry.path, 0, 0) },
                   reason: "is owned by uid 65534, not by you (uid 0)"),
            Tamper(path: name, change: { chown(name.path, 65534, 65534) }, undo: { chown(name.path, 0, 0) },
                   reason: "is owned by uid 65534, not by you (uid 0)"),
            Tamper(path: key, change: { chmod(key.path, 0o644) }, undo: { chmod(key.path, 0o600) },
                   reason: "is readable by group or others (mode 644)"),
        ]
        for tamper in tampers {
            #expect(tamper.change() == 0)
            let result = try scene.runProbe(out: "o")
            #expect(result.status == 2, "\(tamper.reason): exit \(result.status): \(result.stderr)")
            #expect(result.stderr.contains("\(tamper.path.path) \(tamper.reason)"), "\(result.stderr)")
            #expect(!result.stderr.contains("facepipe: compiling"))
            #expect(tamper.undo() == 0)
        }
        let again = try scene.runProbe(out: "o")
        #expect(again.status == 0 && !again.stderr.contains("facepipe: compiling"), "\(again.stderr)")
    }

    /// Under `umask 000` the cache is still made 0700 (files 0700 and
    /// 0600), and the next run under it uses the cache instead of refusing it.
    @Test func umaskZeroStillMakesTheCacheTheCallersAlone() throws {
        let scene = try Scene()
        defer { scene.remove() }
        let first = try scene.runProbe(out: "o1", umask: "000")
        try #require(first.status == 0, "\(first.stderr)")
        let entry = try #require(scene.entries().first)
        func mode(_ url: URL) -> String {
            var status = stat()
            return lstat(url.path, &status) == 0 ? String(status.st_mode & 0o7777, radix: 8) : "missing"
        }
        let expected: [(URL, String)] = [
            (scene.cacheBase, "700"), (scene.cacheBase.appendingPathComponent("facepipe"), "700"), (scene.pipelines, "700"),
            (scene.pipelines.appendingPathComponent("module-cache"), "700"), (scene.pipelines.appendingPathComponent("seal-key"), "600"),
            (entry, "700"), (entry.appendingPathComponent("pipeline"), "700"), (entry.appendingPathComponent("name"), "600"),
            (entry.appendingPathComponent("seal"), "600"),
        ]
        for (url, want) in expected {
            #expect(mode(url) == want, "\(url.path)")
        }
        let second = try scene.runProbe(out: "o2", umask: "000")
        #expect(second.status == 0 && !second.stderr.contains("facepipe: compiling"), "\(second.stderr)")
    }

    // MARK: - Also seen

    @Test func anXDGCacheHomeThatIsAFileIsNamedAsNotAFolder() throws {
        let scene = try Scene()
        defer { scene.remove() }
        try Data("not a folder".utf8).write(to: scene.cacheBase)
        let result = try scene.runProbe(out: "o")
        #expect(result.status == 2)
        #expect(result.stderr.contains("\(scene.cacheBase.path): not a folder"), "\(result.stderr)")
        #expect(!result.stderr.contains("NSCocoaErrorDomain"), "\(result.stderr)")
    }

    /// A pipeline file's path with an escape and a newline: refused, shown
    /// escaped, never compiled (a newline would split it into two compiler inputs).
    @Test func aPipelineFileNameWithControlCharactersIsShownEscapedAndNotCompiled() throws {
        let scene = try Scene()
        defer { scene.remove() }
        let hostile = scene.folder.appendingPathComponent("a\u{1B}[31mb\nc.swift")
        try FileManager.default.copyItem(at: scene.probe, to: hostile)
        let result = try scene.run(["run", "--pipeline", hostile.path, scene.photo.path, "--out", "o", "--quiet"])
        #expect(result.status == 2, "\(result.stderr)")
        #expect(!result.stderr.contains("\u{1B}"), "a raw escape reached the terminal: \(result.stderr.debugDescription)")
        #expect(result.stderr.contains("a\\u{1B}[31mb\\nc.swift"), "\(result.stderr.debugDescription)")
        #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr.debugDescription)")
        #expect(scene.entries().isEmpty)
    }
}

/// The built `facepipe` beside the test bundle, run with its own
/// `XDG_CACHE_HOME` (and, when asked, under a umask), stdout and stderr kept.
enum PipelineFileProcess {
    static var binary: URL { FacepipeBinary.url }
    static var available: Bool { FacepipeBinary.available }

    struct Result {
        let status: Int32
        let stdout: String
        let stderr: String
    }

    static func run(_ arguments: [String], in folder: URL, cacheBase: URL, umask: String?) throws -> Result {
        let (executable, commandLine) = umask.map { ("/bin/sh", ["-c", "umask \($0); exec \"$0\" \"$@\"", binary.path] + arguments) }
            ?? (binary.path, arguments)
        let result = try ChildProcess.run(executable, commandLine, in: folder, environment: ["XDG_CACHE_HOME": cacheBase.path])
        return Result(status: result.status, stdout: String(decoding: result.output, as: UTF8.self), stderr: result.errors)
    }
}
