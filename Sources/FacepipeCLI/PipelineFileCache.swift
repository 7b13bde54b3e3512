import Crypto
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Tools built from pipeline files, under
/// `${XDG_CACHE_HOME:-~/.cache}/facepipe/pipelines/KEY/`, KEY being the
/// SHA-256 of the file's bytes, facepipe's version, the compiler's version
/// and the kit's identity (``PipelineFileCache/key(source:facepipeVersion:swiftVersion:kitIdentity:)``).
///
/// An entry holds `pipeline` (the executable), `name` (its pipeline's name)
/// and `sha256`, written last: the SHA-256 of the other two. On use the hash
/// is recomputed; an entry without it, or whose files no longer match it
/// (a run killed while copying, a damaged disk, an edited file), is built
/// again, never run. A tool is built in a temporary folder beside the
/// entries and renamed to its KEY in one step, so runs building the same
/// file at once each finish one whole entry and the first rename wins.
package struct PipelineFileCache: Equatable {
    /// `…/facepipe/pipelines`.
    package let root: URL

    package init(root: URL) { self.root = root }

    package static let executableName = "pipeline"
    package static let nameFile = "name"
    package static let sealFile = "sha256"
    /// The clang module cache the compiler keeps here (shared by every build).
    package static let moduleCacheFolder = "module-cache"

    /// The cache of this user: `$XDG_CACHE_HOME` when it is an absolute
    /// path (the XDG rule), else `$HOME/.cache`.
    package static func forEnvironment(_ environment: [String: String]) -> PipelineFileCache {
        let base: URL
        if let xdg = environment["XDG_CACHE_HOME"], xdg.hasPrefix("/") {
            base = URL(fileURLWithPath: xdg)
        } else {
            let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
            base = URL(fileURLWithPath: home).appendingPathComponent(".cache")
        }
        return PipelineFileCache(root: base.appendingPathComponent("facepipe/pipelines"))
    }

    /// The entry's name for a file's bytes built by this facepipe with this compiler.
    package static func key(source: Data, facepipeVersion: String, swiftVersion: String, kitIdentity: String) -> String {
        var hasher = SHA256()
        hasher.update(data: source)
        for part in [facepipeVersion, swiftVersion, kitIdentity] {
            hasher.update(data: Data([0]))
            hasher.update(data: Data(part.utf8))
        }
        return hasher.finalize().map { String(format: "%02x", $0) }.joined()
    }

    package func entry(_ key: String) -> URL { root.appendingPathComponent(key) }

    var moduleCache: URL { root.appendingPathComponent(Self.moduleCacheFolder) }

    /// The tool cached under `key`, if its entry is whole and matches its seal.
    package func verified(_ key: String) -> PipelineTool? {
        Self.check(entry(key))
    }

    /// A new empty folder for one build, beside the entries (same file
    /// system, so the finished build can be renamed into place). Build
    /// folders an hour old (left by a killed run) are removed first.
    package func temporaryFolder(for key: String) throws(PipelineFileError) -> URL {
        removeLeftovers(olderThan: 3600)
        let folder = root.appendingPathComponent(".building-\(key.prefix(16))-\(UUID().uuidString)")
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            throw .cacheUnwritable(path: root.path, reason: "\(error.localizedDescription)")
        }
        return folder
    }

    /// Removes build folders and moved-aside entries older than `seconds`
    /// (a run still building has touched its folder more recently).
    func removeLeftovers(olderThan seconds: TimeInterval) {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? []
        for name in names where name.hasPrefix(".building-") || name.hasPrefix(".damaged-") {
            let folder = root.appendingPathComponent(name)
            let modified = (try? FileManager.default.attributesOfItem(atPath: folder.path)[.modificationDate]) as? Date
            if let modified, Date().timeIntervalSince(modified) > seconds { try? FileManager.default.removeItem(at: folder) }
        }
    }

    /// Seals the build in `folder` (which holds `pipeline` and `name`) and
    /// makes it the entry `key`: renamed into place, or, when another run
    /// got there first with a sound entry, dropped for that one. A damaged
    /// entry in the way is moved aside and removed first.
    package func store(_ folder: URL, as key: String) throws(PipelineFileError) -> PipelineTool {
        try Self.seal(folder)
        let target = entry(key)
        defer { try? FileManager.default.removeItem(at: folder) }
        for _ in 0..<3 {
            if rename(folder.path, target.path) == 0, let tool = Self.check(target) { return tool }
            if let tool = Self.check(target) { return tool }
            let aside = root.appendingPathComponent(".damaged-\(key.prefix(16))-\(UUID().uuidString)")
            if rename(target.path, aside.path) == 0 { try? FileManager.default.removeItem(at: aside) }
        }
        throw .cacheUnwritable(path: target.path, reason: "could not replace the entry")
    }

    /// The SHA-256 an entry's `sha256` file must hold: of the executable's
    /// bytes, a 0 byte and the pipeline's name.
    static func digest(executable: URL, name: Data) -> String? {
        guard let bytes = try? Data(contentsOf: executable, options: .alwaysMapped) else { return nil }
        var hasher = SHA256()
        hasher.update(data: bytes)
        hasher.update(data: Data([0]))
        hasher.update(data: name)
        return hasher.finalize().map { String(format: "%02x", $0) }.joined()
    }

    /// Writes `sha256` into a built folder, last.
    static func seal(_ folder: URL) throws(PipelineFileError) {
        let executable = folder.appendingPathComponent(executableName)
        guard let name = try? Data(contentsOf: folder.appendingPathComponent(nameFile)),
              let digest = digest(executable: executable, name: name) else {
            throw .cacheUnwritable(path: folder.path, reason: "the built tool is missing")
        }
        do {
            try Data((digest + "\n").utf8).write(to: folder.appendingPathComponent(sealFile), options: .atomic)
        } catch {
            throw .cacheUnwritable(path: folder.path, reason: "\(error.localizedDescription)")
        }
    }

    /// The tool in `folder` when its seal matches its files (recomputed now).
    static func check(_ folder: URL) -> PipelineTool? {
        guard let seal = try? String(contentsOf: folder.appendingPathComponent(sealFile), encoding: .utf8),
              let nameData = try? Data(contentsOf: folder.appendingPathComponent(nameFile)),
              let name = String(data: nameData, encoding: .utf8), !name.isEmpty else { return nil }
        let executable = folder.appendingPathComponent(executableName)
        guard access(executable.path, X_OK) == 0,
              let digest = digest(executable: executable, name: nameData),
              seal.trimmingCharacters(in: .whitespacesAndNewlines) == digest else { return nil }
        return PipelineTool(executable: executable, pipelineName: name)
    }
}

/// A tool built from a pipeline file: every facepipe verb with the file's pipeline added.
package struct PipelineTool: Equatable {
    package let executable: URL
    package let pipelineName: String
}
