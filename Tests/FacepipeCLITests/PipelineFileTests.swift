import FacepipeCLI
import Foundation
import ImageCodecs
import ImageCore
import Testing

/// Pipeline files (`facepipe run ./MyPipeline.swift …`): how the command
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
        RequestCase(arguments: ["run", "./My.swift", "a.tar", "--out", "o"], file: "./My.swift",
                    forTool: ["run", "--pipeline", "mine", "a.tar", "--out", "o"]),
        RequestCase(arguments: ["run", "--workers", "2", "My.swift", "a.tar", "b.tar", "--out", "o"], file: "My.swift",
                    forTool: ["run", "--pipeline", "mine", "--workers", "2", "a.tar", "b.tar", "--out", "o"]),
        RequestCase(arguments: ["run", "--pipeline", "dir/My.swift", "a.tar", "--out", "o", "--set", "x.y=1"], file: "dir/My.swift",
                    forTool: ["run", "--pipeline", "mine", "a.tar", "--out", "o", "--set", "x.y=1"]),
        RequestCase(arguments: ["run", "--pipeline=My.swift", "a.tar", "--out", "o"], file: "My.swift",
                    forTool: ["run", "--pipeline=mine", "a.tar", "--out", "o"]),
        RequestCase(arguments: ["describe", "My.swift"], file: "My.swift", forTool: ["describe", "mine"]),
        RequestCase(arguments: ["run", "faces", "a.tar", "--out", "o"], file: nil, forTool: []),
        RequestCase(arguments: ["run", "a.tar", "--out", "o"], file: nil, forTool: []),
        RequestCase(arguments: ["describe", "faces"], file: nil, forTool: []),
    ])
    func commandLineNamesAPipelineFile(_ example: RequestCase) {
        let request = PipelineFileRequest.recognize(example.arguments)
        #expect(request?.file == example.file)
        if let request { #expect(request.arguments(naming: "mine") == example.forTool) }
    }

    /// Through the public command line: a `.swift` argument is a pipeline
    /// file, never an input for the default pipeline; one that cannot be
    /// built stops the run before `--out` exists (exit 2).
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
        #expect(!FileManager.default.fileExists(atPath: out.path))
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
        let cache = PipelineFileCache(root: root)
        let key = String(repeating: "ab", count: 32)
        #expect(cache.verified(key) == nil)
        let tool = try cache.store(try fakeBuild(in: cache, key: key, text: "one"), as: key)
        #expect(tool.pipelineName == "mine")
        #expect(cache.verified(key) == tool)

        // One byte of the executable changed: not trusted.
        let executable = cache.entry(key).appendingPathComponent(PipelineFileCache.executableName)
        var bytes = try Data(contentsOf: executable)
        bytes[bytes.count - 2] ^= 1
        try bytes.write(to: executable)
        #expect(cache.verified(key) == nil)
        // A new build replaces the damaged entry.
        #expect(try cache.store(try fakeBuild(in: cache, key: key, text: "two"), as: key) == tool)
        #expect(cache.verified(key) == tool)

        // No seal (a copy cut short before it was written), or another name: not trusted.
        let seal = cache.entry(key).appendingPathComponent(PipelineFileCache.sealFile)
        let sealed = try Data(contentsOf: seal)
        try FileManager.default.removeItem(at: seal)
        #expect(cache.verified(key) == nil)
        try sealed.write(to: seal)
        #expect(cache.verified(key) == tool)
        try Data("other".utf8).write(to: cache.entry(key).appendingPathComponent(PipelineFileCache.nameFile))
        #expect(cache.verified(key) == nil)
        // The executable gone: not trusted.
        try FileManager.default.removeItem(at: executable)
        #expect(cache.verified(key) == nil)
    }

    @Test func concurrentBuildsOfOneFileLeaveOneWholeEntry() async throws {
        let root = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let cache = PipelineFileCache(root: root)
        let key = String(repeating: "cd", count: 32)
        let folders = try (0..<8).map { _ in try fakeBuild(in: cache, key: key, text: "same") }
        let tools = await withTaskGroup(of: PipelineTool?.self) { group in
            for folder in folders { group.addTask { try? cache.store(folder, as: key) } }
            var tools: [PipelineTool?] = []
            for await tool in group { tools.append(tool) }
            return tools
        }
        #expect(tools.count == 8)
        #expect(tools.allSatisfy { $0 != nil && $0 == cache.verified(key) })
        let left = try FileManager.default.contentsOfDirectory(atPath: root.path)
        #expect(left == [key], "temporary build folders left: \(left)")
    }

    @Test func buildFoldersOfKilledRunsAreRemovedWhenOld() throws {
        let root = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let cache = PipelineFileCache(root: root)
        let old = root.appendingPathComponent(".building-0123456789abcdef-killed")
        let recent = root.appendingPathComponent(".building-0123456789abcdef-running")
        for folder in [old, recent] { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) }
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -7200)], ofItemAtPath: old.path)
        let new = try cache.temporaryFolder(for: String(repeating: "ef", count: 32))
        #expect(!FileManager.default.fileExists(atPath: old.path))
        #expect(FileManager.default.fileExists(atPath: recent.path), "a build still running keeps its folder")
        #expect(FileManager.default.fileExists(atPath: new.path))
    }

    @Test func anotherCompilerVersionIsRefusedNamingBoth() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let compiler = folder.appendingPathComponent("swiftc")
        try Data("#!/bin/sh\necho 'Swift version 5.10 (swift-5.10-RELEASE)'\necho 'Target: x86_64-unknown-linux-gnu'\n".utf8).write(to: compiler)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: compiler.path)
        #expect(try PipelineFileBuild.findCompiler(path: "/nonexistent:\(folder.path)") == compiler.path)
        #expect(throws: PipelineFileError.compilerNotFound(path: "/nonexistent")) { try PipelineFileBuild.findCompiler(path: "/nonexistent") }
        let kit = PipelineKit(swiftVersion: "Swift version 6.3.1 (swift-6.3.1-RELEASE)\nTarget: x86_64-unknown-linux-gnu",
                              compileArguments: [], objects: .archive("/nonexistent"), identity: "")
        let cache = PipelineFileCache(root: folder.appendingPathComponent("cache"))
        let error = #expect(throws: PipelineFileError.self) {
            try PipelineFileBuild.checkVersion(of: compiler.path, against: kit, scratch: cache)
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
    @Test func fileIsCompiledAgainstTheBuildFolderAndRun() throws {
        let bin = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
        let facepipe = bin.appendingPathComponent("facepipe")
        try #require(FileManager.default.isExecutableFile(atPath: facepipe.path), "build facepipe first (swift build --product facepipe)")
        let kit = try PipelineKit.locate(executable: facepipe)
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let build = PipelineFileBuild(kit: kit, cache: PipelineFileCache(root: folder.appendingPathComponent("cache")),
                                      compiler: try PipelineFileBuild.findCompiler(path: ProcessInfo.processInfo.environment["PATH"] ?? ""))
        try PipelineFileBuild.checkVersion(of: build.compiler, against: kit, scratch: build.cache)

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
        let tool = try build.tool(for: file.path, facepipeVersion: FacepipeVersion.string) { notices.append($0) }
        #expect(tool.pipelineName == "whole-picture")
        #expect(notices.count == 2)

        let png = try FastPNGEncoder.encode(RGBImage(width: 64, height: 48, pixels: [UInt8](repeating: 128, count: 64 * 48 * 3)))
        let photo = folder.appendingPathComponent("photo.png")
        try Data(png).write(to: photo)
        let out = folder.appendingPathComponent("out")
        let process = Process()
        process.executableURL = tool.executable
        process.arguments = ["run", "--pipeline", tool.pipelineName, photo.path, "--out", out.path, "--quiet",
                             "--set", "whole-picture-face.inset=10"]
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let manifest = try String(contentsOf: out.appendingPathComponent("manifest.csv"), encoding: .utf8)
        #expect(manifest.contains(",10.00,10.00,44.00,28.00,"), "the file's stage made the face, --set reached it: \(manifest)")

        // Cached: no compile, the same tool.
        notices = []
        #expect(try build.tool(for: file.path, facepipeVersion: FacepipeVersion.string) { notices.append($0) } == tool)
        #expect(notices.isEmpty)

        // A type error: the compiler's failure, exit 2 from the launcher's error.
        let broken = folder.appendingPathComponent("Broken.swift")
        try Data("import Pipeline\nlet pipeline: Pipeline = 42\n".utf8).write(to: broken)
        #expect(throws: PipelineFileError.compileFailed(path: broken.path, status: 1)) {
            try build.tool(for: broken.path, facepipeVersion: FacepipeVersion.string) { _ in }
        }
        let left = try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("cache").path).sorted()
        #expect(left == [PipelineFileCache.moduleCacheFolder, tool.executable.deletingLastPathComponent().lastPathComponent].sorted())
    }
}
