import Foundation

/// What compiling a pipeline file needs from facepipe: the `.swiftmodule`
/// files of the modules a pipeline file imports (and those their interfaces
/// import), the C modules' maps and headers, facepipe's objects without its
/// `main`, and the `swiftc --version` they were all built with.
///
/// Two places hold it. An installed facepipe (`make install`,
/// scripts/install-pipeline-kit.py) has it in `PREFIX/lib/facepipe/`:
/// `Modules/`, `c/`, `libfacepipe.a`, `swift-version` and `swiftc-arguments`
/// (one argument a line; `$KIT/` in them stands for that folder). A facepipe run
/// from its build folder (`.build/release/facepipe`) takes it from the build:
/// `Modules/`, the module flags SwiftPM compiled FacepipeCLI with
/// (`description.json`), the objects it linked (`facepipe.product/Objects.LinkFileList`
/// without the executable's own) and `swift-version-*.txt`.
package struct PipelineKit: Equatable {
    /// `swiftc --version` of the compiler that built the modules.
    package let swiftVersion: String
    /// Import paths and module maps, for compiling.
    package let compileArguments: [String]
    /// What to link: an archive, or the objects one by one.
    package let objects: Objects
    /// Changes whenever facepipe is rebuilt or reinstalled (size and time of
    /// its executable), so a cached tool never outlives the objects it linked.
    package let identity: String

    package enum Objects: Equatable {
        /// `libfacepipe.a`, linked whole (Swift registers conformances in
        /// objects nothing else references).
        case archive(String)
        /// Object files, passed in a response file.
        case files([String])

        var linkArguments: (arguments: [String], responseFile: [String]?) {
            switch self {
            case .archive(let path): return (["-Xlinker", "--whole-archive", path, "-Xlinker", "--no-whole-archive"], nil)
            case .files(let paths): return ([], paths)
            }
        }
    }

    /// The installed kit's folder name under PREFIX/lib.
    static let installedFolder = "lib/facepipe"
    /// The file of arguments in an installed kit.
    static let argumentsFile = "swiftc-arguments"
    /// The compiler version file in an installed kit.
    static let versionFile = "swift-version"
    /// The static archive in an installed kit.
    static let archiveFile = "libfacepipe.a"
    /// What `$KIT/` in `swiftc-arguments` stands for.
    static let kitPlaceholder = "$KIT/"

    /// The kit of the facepipe at `executable` (resolved): installed beside
    /// it (`../lib/facepipe`) or the build folder it is in.
    package static func locate(executable: URL) throws(PipelineFileError) -> PipelineKit {
        let binFolder = executable.deletingLastPathComponent()
        let installed = binFolder.deletingLastPathComponent().appendingPathComponent(installedFolder)
        let identity = executableIdentity(executable)
        if FileManager.default.fileExists(atPath: installed.appendingPathComponent(argumentsFile).path) {
            return try fromInstalled(installed, identity: identity)
        }
        let name = executable.lastPathComponent
        let linkList = binFolder.appendingPathComponent("\(name).product/Objects.LinkFileList")
        if FileManager.default.fileExists(atPath: linkList.path) {
            return try fromBuildFolder(binFolder, executableName: name, identity: identity)
        }
        throw .kitNotFound(executable: executable.path, searched: [installed.path, linkList.path])
    }

    /// An installed kit (`make install`).
    static func fromInstalled(_ folder: URL, identity: String) throws(PipelineFileError) -> PipelineKit {
        let kit = folder.standardizedFileURL.path + "/"
        let arguments = try readText(folder.appendingPathComponent(argumentsFile))
            .split(separator: "\n").map(String.init)
            .map { $0.replacingOccurrences(of: kitPlaceholder, with: kit) }
        let archive = folder.appendingPathComponent(archiveFile).path
        guard FileManager.default.fileExists(atPath: archive) else { throw .kitDamaged(path: archive, reason: "missing") }
        let version = try readText(folder.appendingPathComponent(versionFile)).trimmingCharacters(in: .whitespacesAndNewlines)
        return PipelineKit(swiftVersion: version, compileArguments: arguments, objects: .archive(archive), identity: identity)
    }

    /// The build folder `bin` (where SwiftPM put `executableName`).
    static func fromBuildFolder(_ bin: URL, executableName: String, identity: String) throws(PipelineFileError) -> PipelineKit {
        let description = bin.appendingPathComponent("description.json")
        let plan: BuildDescription
        do {
            plan = try JSONDecoder().decode(BuildDescription.self, from: Data(contentsOf: description))
        } catch {
            throw .kitDamaged(path: description.path, reason: "\(error)")
        }
        guard let command = plan.swiftCommands.values.first(where: { $0.moduleName == "FacepipeCLI" }) else {
            throw .kitDamaged(path: description.path, reason: "no command compiles FacepipeCLI")
        }
        let linkList = bin.appendingPathComponent("\(executableName).product/Objects.LinkFileList")
        let ownObjects = bin.resolvingSymlinksInPath().appendingPathComponent("\(executableName).build").path + "/"
        let objects = try readText(linkList).split(separator: "\n").map(String.init)
            .filter { !$0.isEmpty && !URL(fileURLWithPath: $0).resolvingSymlinksInPath().path.hasPrefix(ownObjects) }
        let versionFiles = (try? FileManager.default.contentsOfDirectory(atPath: bin.path))?
            .filter { $0.hasPrefix("swift-version-") && $0.hasSuffix(".txt") }.sorted() ?? []
        guard let versionFile = versionFiles.first else {
            throw .kitDamaged(path: bin.appendingPathComponent("swift-version-*.txt").path, reason: "missing")
        }
        let version = try readText(bin.appendingPathComponent(versionFile)).trimmingCharacters(in: .whitespacesAndNewlines)
        let modules = URL(fileURLWithPath: command.importPath ?? bin.appendingPathComponent("Modules").path).path
        return PipelineKit(swiftVersion: version, compileArguments: ["-I", modules] + moduleArguments(command.otherArguments),
                           objects: .files(objects), identity: identity)
    }

    /// The arguments of a SwiftPM compile command that find modules: C module
    /// maps (`-Xcc -fmodule-map-file=…`), their header folders (`-Xcc -I -Xcc …`)
    /// and system include folders from pkg-config (`-I/usr/include/…`).
    package static func moduleArguments(_ arguments: [String]) -> [String] {
        var kept: [String] = []
        var i = 0
        while i < arguments.count {
            let argument = arguments[i]
            if argument == "-Xcc", i + 1 < arguments.count, arguments[i + 1].hasPrefix("-fmodule-map-file=") {
                kept += arguments[i...(i + 1)]
                i += 2
            } else if argument == "-Xcc", i + 3 < arguments.count, arguments[i + 1] == "-I", arguments[i + 2] == "-Xcc" {
                kept += arguments[i...(i + 3)]
                i += 4
            } else {
                if argument.hasPrefix("-I"), argument.count > 2 { kept.append(argument) }
                i += 1
            }
        }
        return kept
    }

    /// Size and modification time of the executable.
    static func executableIdentity(_ executable: URL) -> String {
        let attributes = (try? FileManager.default.attributesOfItem(atPath: executable.path)) ?? [:]
        let size = (attributes[.size] as? NSNumber)?.int64Value ?? -1
        let time = (attributes[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0
        return "\(executable.path) \(size) \(time)"
    }

    private static func readText(_ url: URL) throws(PipelineFileError) -> String {
        do {
            return try String(contentsOf: url, encoding: .utf8)
        } catch {
            throw .kitDamaged(path: url.path, reason: FileManager.default.fileExists(atPath: url.path) ? "unreadable" : "missing")
        }
    }

    /// The part of SwiftPM's `description.json` the kit reads.
    package init(swiftVersion: String, compileArguments: [String], objects: Objects, identity: String) {
        self.swiftVersion = swiftVersion
        self.compileArguments = compileArguments
        self.objects = objects
        self.identity = identity
    }

    private struct BuildDescription: Decodable {
        struct Command: Decodable {
            let moduleName: String
            let importPath: String?
            let otherArguments: [String]
        }
        let swiftCommands: [String: Command]
    }
}
