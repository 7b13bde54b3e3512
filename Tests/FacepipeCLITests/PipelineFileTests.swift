import FacepipeCLI
import Foundation
import ImageCodecs
import ImageCore
import Testing
import _TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// Pipeline files (`facepipe run --pipeline MyPipeline.swift …`): how the command
/// line names one, the cache's seal, the compiler check, and a whole build
/// against this build folder. scripts/check-install.sh does the same from
/// an installed kit.
struct PipelineFileTests {
    private func temporaryFolder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("facepipe-pipeline-file-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    struct RequestCase: Sendable, CustomStringConvertible {
        let arguments: [String]
        let file: String?
        let forTool: [String]
        var description: String { arguments.joined(separator: " ") }
    }

    @Test(arguments: [
        // A Swift file is compiled only after --pipeline: as an INPUT or describe's NAME it is refused.
        RequestCase(arguments: ["run", "./My.swift", "a.tar", "--out", "o"], file: nil, forTool: []),
        RequestCase(arguments: ["run", "--workers", "2", "a.tar", "My.swift", "--out", "o"], file: nil, forTool: []),
        RequestCase(arguments: ["describe", "My.swift"], file: nil, forTool: []),
        RequestCase(arguments: ["run", "--workers", "2", "--pipeline", "My.swift", "a.tar", "b.tar", "--out", "o"], file: "My.swift",
                    forTool: ["run", "--workers", "2", "--pipeline", "mine", "a.tar", "b.tar", "--out", "o"]),
        RequestCase(arguments: ["run", "--pipeline", "dir/My.swift", "a.tar", "--out", "o", "--set", "x.y=1"], file: "dir/My.swift",
                    forTool: ["run", "--pipeline", "mine", "a.tar", "--out", "o", "--set", "x.y=1"]),
        RequestCase(arguments: ["run", "--pipeline=My.swift", "a.tar", "--out", "o"], file: "My.swift",
                    forTool: ["run", "--pipeline=mine", "a.tar", "--out", "o"]),
        RequestCase(arguments: ["describe", "--pipeline", "My.swift"], file: "My.swift", forTool: ["describe", "--pipeline", "mine"]),
        RequestCase(arguments: ["describe", "--pipeline=My.swift"], file: "My.swift", forTool: ["describe", "--pipeline=mine"]),
        RequestCase(arguments: ["run", "faces", "a.tar", "--out", "o"], file: nil, forTool: []),
        RequestCase(arguments: ["run", "a.tar", "--out", "o"], file: nil, forTool: []),
        RequestCase(arguments: ["describe", "faces"], file: nil, forTool: []),
    ])
    func commandLineNamesAPipelineFile(_ example: RequestCase) {
        let request = PipelineFileRequest.recognize(example.arguments)
        #expect(request?.file == example.file)
        if let request { #expect(request.arguments(naming: "mine") == example.forTool) }
    }

    /// Through the public command line: a `.swift` INPUT is refused, never
    /// read as an input for the default pipeline nor compiled; a pipeline
    /// file that cannot be built stops the run before `--out` exists (exit 2).
    @Test func swiftArgumentIsNeverAnInput() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let png = try FastPNGEncoder.encode(RGBImage(width: 64, height: 48, pixels: [UInt8](repeating: 128, count: 64 * 48 * 3)))
        let photo = folder.appendingPathComponent("photo.png")
        try Data(png).write(to: photo)
        let file = folder.appendingPathComponent("NoPipeline.swift")
        try Data("import Pipeline\nlet somethingElse = 1\n".utf8).write(to: file)
        let out = folder.appendingPathComponent("out")
        #expect(await FacepipeCommand.run(["run", file.path, photo.path, "--out", out.path, "--quiet"]) == 2)
        #expect(await FacepipeCommand.run(["run", "--pipeline", file.path, photo.path, "--out", out.path, "--quiet"]) == 2)
        #expect(await FacepipeCommand.run(["describe", file.path]) == 2)
        #expect(await FacepipeCommand.run(["describe", "--pipeline", file.path]) == 2)
        #expect(!FileManager.default.fileExists(atPath: out.path))
    }

    struct FolderCase: Sendable, CustomStringConvertible {
        let name: String
        /// Prepares `folder` and returns the cache's base folder.
        let prepare: @Sendable (URL) throws -> URL
        /// The refusal, with `{}` for the folder (nil: the cache opens).
        let refusal: String?
        var description: String { name }
    }

    /// What lies above the cache matters too: a folder there that others may
    /// write (without the sticky bit) could have the cache renamed away and
    /// replaced, so it is refused; a sticky one (`/tmp`) is not. A base
    /// reached through a link is resolved once; a cache folder that is a
    /// file is named as not a folder.
    @Test(arguments: [
        FolderCase(name: "a parent writable by all", prepare: { folder in
            let open = folder.appendingPathComponent("open")
            try FileManager.default.createDirectory(at: open, withIntermediateDirectories: true)
            _ = chmod(open.path, 0o777)
            return open.appendingPathComponent("cache")
        }, refusal: "the pipeline cache is not yours alone: {}/open is writable by group or others (mode 777)"),
        FolderCase(name: "a sticky parent writable by all", prepare: { folder in
            let open = folder.appendingPathComponent("tmp")
            try FileManager.default.createDirectory(at: open, withIntermediateDirectories: true)
            _ = chmod(open.path, 0o1777)
            return open.appendingPathComponent("cache")
        }, refusal: nil),
        FolderCase(name: "a base reached through a link", prepare: { folder in
            try FileManager.default.createDirectory(at: folder.appendingPathComponent("real"), withIntermediateDirectories: true)
            try FileManager.default.createSymbolicLink(at: folder.appendingPathComponent("link"), withDestinationURL: folder.appendingPathComponent("real"))
            return folder.appendingPathComponent("link")
        }, refusal: nil),
        FolderCase(name: "facepipe is a file", prepare: { folder in
            try Data().write(to: folder.appendingPathComponent("facepipe"))
            return folder
        }, refusal: "cannot write the pipeline cache {}/facepipe: not a folder"),
    ])
    func foldersAboveAndInTheCache(_ example: FolderCase) throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let base = try example.prepare(folder)
        if let refusal = example.refusal {
            let error = #expect(throws: PipelineFileError.self) { try PipelineFileCache(base: base) }
            #expect(error?.description.hasPrefix(refusal.replacingOccurrences(of: "{}", with: folder.path)) == true, "\(String(describing: error))")
        } else {
            let cache = try PipelineFileCache(base: base)
            #expect(cache.root.path == base.resolvingSymlinksInPath().appendingPathComponent("facepipe/pipelines").path)
            var status = stat()
            #expect(stat(cache.root.path, &status) == 0 && status.st_mode & 0o777 == 0o700)
        }
    }

    @Test func pipelineDeclarationIsFound() {
        #expect(PipelineFileBuild.declaresPipeline("import Pipeline\n\nlet pipeline = Pipeline(\"x\") {\n}"))
        #expect(PipelineFileBuild.declaresPipeline("public let pipeline: Pipeline = make()"))
        #expect(PipelineFileBuild.declaresPipeline("var pipeline=Pipeline(\"x\") {}"))
        #expect(!PipelineFileBuild.declaresPipeline("let myPipeline = Pipeline(\"x\") {}"))
        #expect(!PipelineFileBuild.declaresPipeline("// a pipeline file\nlet other = 1"))
    }

    @Test func keyChangesWithEveryPart() {
        let source = Data("let pipeline = 1".utf8)
        let base = PipelineFileCache.key(source: source, facepipeVersion: "0.5.2", swiftVersion: "6.3.1", kitIdentity: "a")
        #expect(base.count == 64)
        #expect(base == PipelineFileCache.key(source: source, facepipeVersion: "0.5.2", swiftVersion: "6.3.1", kitIdentity: "a"))
        #expect(base != PipelineFileCache.key(source: source + Data([10]), facepipeVersion: "0.5.2", swiftVersion: "6.3.1", kitIdentity: "a"))
        #expect(base != PipelineFileCache.key(source: source, facepipeVersion: "0.5.3", swiftVersion: "6.3.1", kitIdentity: "a"))
        #expect(base != PipelineFileCache.key(source: source, facepipeVersion: "0.5.2", swiftVersion: "6.3.2", kitIdentity: "a"))
        #expect(base != PipelineFileCache.key(source: source, facepipeVersion: "0.5.2", swiftVersion: "6.3.1", kitIdentity: "b"))
    }

    /// A finished build folder holding an executable script and a name.
    private func fakeBuild(in cache: PipelineFileCache, key: String, text: String) throws -> URL {
        let folder = try cache.temporaryFolder(for: key)
        let executable = folder.appendingPathComponent(PipelineFileCache.executableName)
        try Data("#!/bin/sh\necho \(text)\n".utf8).write(to: executable)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: executable.path)
        try Data("mine".utf8).write(to: folder.appendingPathComponent(PipelineFileCache.nameFile))
        return folder
    }

    @Test func damagedOrPartialEntriesAreNeverTrusted() throws {
        let root = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let cache = try PipelineFileCache(base: root)
        let key = String(repeating: "ab", count: 32)
        #expect(try cache.verified(key) == nil)
        let tool = try cache.store(try fakeBuild(in: cache, key: key, text: "one"), as: key)
        #expect(tool.pipelineName == "mine")
        #expect(try cache.verified(key) == tool)

        // One byte of the executable changed: not trusted.
        let executable = cache.entry(key).appendingPathComponent(PipelineFileCache.executableName)
        var bytes = try Data(contentsOf: executable)
        bytes[bytes.count - 2] ^= 1
        try bytes.write(to: executable)
        #expect(try cache.verified(key) == nil)
        // A new build replaces the damaged entry.
        #expect(try cache.store(try fakeBuild(in: cache, key: key, text: "two"), as: key) == tool)
        #expect(try cache.verified(key) == tool)

        // No seal (a copy cut short before it was written), or another name: not trusted.
        let seal = cache.entry(key).appendingPathComponent(PipelineFileCache.sealFile)
        let sealed = try Data(contentsOf: seal)
        try FileManager.default.removeItem(at: seal)
        #expect(try cache.verified(key) == nil)
        try sealed.write(to: seal)
        #expect(try cache.verified(key) == tool)
        try Data("other".utf8).write(to: cache.entry(key).appendingPathComponent(PipelineFileCache.nameFile))
        #expect(try cache.verified(key) == nil)
        // The executable gone: not trusted.
        try FileManager.default.removeItem(at: executable)
        #expect(try cache.verified(key) == nil)
    }

    @Test func concurrentBuildsOfOneFileLeaveOneWholeEntry() async throws {
        let root = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let cache = try PipelineFileCache(base: root)
        let key = String(repeating: "cd", count: 32)
        let folders = try (0..<8).map { _ in try fakeBuild(in: cache, key: key, text: "same") }
        let tools = await withTaskGroup(of: PipelineTool?.self) { group in
            for folder in folders { group.addTask { try? cache.store(folder, as: key) } }
            var tools: [PipelineTool?] = []
            for await tool in group { tools.append(tool) }
            return tools
        }
        #expect(tools.count == 8)
        let verified = try cache.verified(key)
        #expect(tools.allSatisfy { $0 != nil && $0 == verified })
        let left = try FileManager.default.contentsOfDirectory(atPath: cache.root.path).sorted()
        #expect(left == [key, PipelineFileCache.moduleCacheFolder, PipelineFileCache.sealKeyFile].sorted(), "temporary build folders left: \(left)")
    }

    @Test func buildFoldersOfKilledRunsAreRemovedWhenOld() throws {
        let root = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let cache = try PipelineFileCache(base: root)
        let old = cache.root.appendingPathComponent(".building-0123456789abcdef-killed")
        let recent = cache.root.appendingPathComponent(".building-0123456789abcdef-running")
        for folder in [old, recent] { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) }
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -7200)], ofItemAtPath: old.path)
        let new = try cache.temporaryFolder(for: String(repeating: "ef", count: 32))
        #expect(!FileManager.default.fileExists(atPath: old.path))
        #expect(FileManager.default.fileExists(atPath: recent.path), "a build still running keeps its folder")
        #expect(FileManager.default.fileExists(atPath: new.path))
    }

    @Test func anotherCompilerVersionIsRefusedNamingBoth() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let compiler = folder.appendingPathComponent("swiftc")
        try Data("#!/bin/sh\necho 'Swift version 5.10 (swift-5.10-RELEASE)'\necho 'Target: x86_64-unknown-linux-gnu'\n".utf8).write(to: compiler)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: compiler.path)
        #expect(try PipelineFileBuild.findCompiler(path: "/nonexistent:\(folder.path)") == compiler.path)
        #expect(throws: PipelineFileError.compilerNotFound(path: "/nonexistent")) { try PipelineFileBuild.findCompiler(path: "/nonexistent") }
        let kit = PipelineKit(swiftVersion: "Swift version 6.3.1 (swift-6.3.1-RELEASE)\nTarget: x86_64-unknown-linux-gnu",
                              compileArguments: [], objects: .archive("/nonexistent"), identity: "")
        let cache = try PipelineFileCache(base: folder.appendingPathComponent("cache"))
        let error = await #expect(throws: PipelineFileError.self) {
            try await PipelineFileBuild.checkVersion(of: compiler.path, against: kit, scratch: cache)
        }
        #expect(error == .compilerMismatch(found: "Swift version 5.10 (swift-5.10-RELEASE)", builtWith: "Swift version 6.3.1 (swift-6.3.1-RELEASE)"))
        #expect(error?.description.contains("Swift version 5.10 (swift-5.10-RELEASE)") == true)
        #expect(error?.description.contains("Swift version 6.3.1 (swift-6.3.1-RELEASE)") == true)
    }

    @Test func moduleArgumentsOfACompileCommand() {
        let arguments = ["-target", "x86_64-unknown-linux-gnu", "-O", "-Xcc", "-fmodule-map-file=/b/CPNG/module.modulemap",
                         "-I/usr/include/libpng16", "-Xcc", "-fmodule-map-file=/b/C.build/module.modulemap",
                         "-Xcc", "-I", "-Xcc", "/s/C/include", "-module-cache-path", "/b/ModuleCache", "-Xcc", "-fPIC", "-g"]
        #expect(PipelineKit.moduleArguments(arguments) == [
            "-Xcc", "-fmodule-map-file=/b/CPNG/module.modulemap", "-I/usr/include/libpng16",
            "-Xcc", "-fmodule-map-file=/b/C.build/module.modulemap", "-Xcc", "-I", "-Xcc", "/s/C/include",
        ])
    }

    /// The whole way, against this build folder's modules and objects: a
    /// file with a stage of its own, compiled and run on a picture; then the
    /// cache; then a file that does not compile.
    @Test func fileIsCompiledAgainstTheBuildFolderAndRun() async throws {
        let bin = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
        let facepipe = bin.appendingPathComponent("facepipe")
        try #require(FileManager.default.isExecutableFile(atPath: facepipe.path), "build facepipe first (swift build --product facepipe)")
        let kit = try PipelineKit.locate(executable: facepipe)
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let build = PipelineFileBuild(kit: kit, cache: try PipelineFileCache(base: folder.appendingPathComponent("cache")),
                                      compiler: try PipelineFileBuild.findCompiler(path: ProcessInfo.processInfo.environment["PATH"] ?? ""))
        try await PipelineFileBuild.checkVersion(of: build.compiler, against: kit, scratch: build.cache)

        let file = folder.appendingPathComponent("WholePicture.swift")
        try Data("""
            import ImageCore
            import Pipeline

            /// The whole picture as one face, `inset` pixels in (no model needed).
            struct WholePictureFace: Stage {
                var inset: Float = 0
                static var optionTable: [StageOption<Self>] { [StageOption("inset", \\.inset)] }
                var definition: StageDefinition { StageDefinition("whole-picture-face", optionsOf: self) }
                func process(_ frame: Frame<Phase.Upright>, context: StageContext) throws -> Frame<Phase.Detected> {
                    var detected = frame.advanced(to: Phase.Detected.self)
                    let width = Float(frame.image.width), height = Float(frame.image.height)
                    detected.record.detectionRan = true
                    detected.record.faces = [FaceRecord(face: 0, confidence: 1,
                                                        box: Rect(x: inset, y: inset, width: width - 2 * inset, height: height - 2 * inset))]
                    return detected
                }
            }

            let pipeline = Pipeline("whole-picture", summary: "one face: the picture") {
                Decode()
                Orient()
                WholePictureFace()
                Annotate([])
                WriteOutputs(images: .none)
            }

            """.utf8).write(to: file)
        var notices: [String] = []
        let tool = try await build.tool(for: file.path, facepipeVersion: FacepipeVersion.string) { notices.append($0) }
        #expect(tool.pipelineName == "whole-picture")
        #expect(notices.count == 2)

        let png = try FastPNGEncoder.encode(RGBImage(width: 64, height: 48, pixels: [UInt8](repeating: 128, count: 64 * 48 * 3)))
        let photo = folder.appendingPathComponent("photo.png")
        try Data(png).write(to: photo)
        let out = folder.appendingPathComponent("out")
        let result = try ChildProcess.run(tool.executable.path, ["run", "--pipeline", tool.pipelineName, photo.path, "--out", out.path,
                                                                 "--quiet", "--set", "whole-picture-face.inset=10"])
        #expect(result.status == 0, "\(result.errors)")
        let manifest = try String(contentsOf: out.appendingPathComponent("manifest.csv"), encoding: .utf8)
        #expect(manifest.contains(",10.00,10.00,44.00,28.00,"), "the file's stage made the face, --set reached it: \(manifest)")

        // Cached: no compile, the same tool.
        notices = []
        #expect(try await build.tool(for: file.path, facepipeVersion: FacepipeVersion.string) { notices.append($0) } == tool)
        #expect(notices.isEmpty)

        // A type error: the compiler's failure, exit 2 from the launcher's error.
        let broken = folder.appendingPathComponent("Broken.swift")
        try Data("import Pipeline\nlet pipeline: Pipeline = 42\n".utf8).write(to: broken)
        await #expect(throws: PipelineFileError.compileFailed(path: broken.path, status: 1)) {
            try await build.tool(for: broken.path, facepipeVersion: FacepipeVersion.string) { _ in }
        }
        let left = try FileManager.default.contentsOfDirectory(atPath: build.cache.root.path).sorted()
        #expect(left == [PipelineFileCache.moduleCacheFolder, PipelineFileCache.sealKeyFile,
                         tool.executable.deletingLastPathComponent().lastPathComponent].sorted())
    }
}
