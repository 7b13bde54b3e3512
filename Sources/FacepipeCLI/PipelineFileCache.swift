#if canImport(Glibc)
import Crypto
import Foundation
import Glibc
import Pipeline
import RunFolders
#endif

/// Tools built from pipeline files, under
/// `${XDG_CACHE_HOME:-~/.cache}/facepipe/pipelines/KEY/`, KEY being the
/// SHA-256 of the file's bytes, facepipe's version, the compiler's version
/// and the kit's identity (``PipelineFileCache/key(source:facepipeVersion:swiftVersion:kitIdentity:)``).
///
/// A cached tool is run as the caller, so the cache must be the caller's
/// alone: opening it walks the path from `/` and checks every folder on
/// open handles (``PipelineFileCacheFolder``), creates what is missing 0700,
/// and refuses (exit 2, naming it) a folder, entry or file that belongs to
/// someone else or that group or others may write.
///
/// An entry holds `pipeline` (the executable, 0700), `name` (its pipeline's
/// name, 0600) and `seal` (0600), written last: the HMAC-SHA256 of the
/// other two under `seal-key`, 32 random bytes that the cache keeps 0600,
/// so nobody who cannot read that key can make a seal, even with write
/// access beside it. On use the seal is recomputed from the files as
/// opened (without following links); an entry without it, or whose files
/// no longer match it (a run killed while copying, a damaged disk, an
/// edited file), is built again, never run. A tool is built in a temporary
/// folder beside the entries and renamed to its KEY in one step, so runs
/// building the same file at once each finish one whole entry and the
/// first rename wins.
package struct PipelineFileCache: Equatable {
    /// `…/facepipe/pipelines`, resolved and checked.
    package let root: URL

    /// The cache under `base` (the XDG cache folder): `base/facepipe/pipelines`,
    /// opened, created where missing and checked (``PipelineFileCacheFolder``).
    package init(base: URL) throws(PipelineFileError) {
        let path = try PipelineFileCacheFolder.open(base: base.path, own: ["facepipe", "pipelines"])
        guard TerminalText.escaped(path) == path else {
            throw .cacheUnwritable(path: path, reason: "its name holds control characters, which the compiler's response files cannot carry")
        }
        root = URL(fileURLWithPath: path, isDirectory: true)
        _ = try PipelineFileCacheFolder.open(base: path, own: [Self.moduleCacheFolder])
    }

    package static let executableName = "pipeline"
    package static let nameFile = "name"
    package static let sealFile = "seal"
    /// The key of the seals, in the cache folder.
    package static let sealKeyFile = "seal-key"
    /// The clang module cache the compiler keeps here (shared by every build).
    package static let moduleCacheFolder = "module-cache"

    /// The cache folder of this user: `$XDG_CACHE_HOME` when it is an
    /// absolute path (the XDG rule), else `$HOME/.cache`.
    package static func base(for environment: [String: String]) -> URL {
        if let xdg = environment["XDG_CACHE_HOME"], xdg.hasPrefix("/") {
            return URL(fileURLWithPath: xdg)
        }
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        return URL(fileURLWithPath: home).appendingPathComponent(".cache")
    }

    /// The cache of this user, opened and checked.
    package static func forEnvironment(_ environment: [String: String]) throws(PipelineFileError) -> PipelineFileCache {
        try PipelineFileCache(base: base(for: environment))
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

    /// The tool cached under `key`, if its entry is whole and matches its
    /// seal; throws when the entry or one of its files is not the caller's
    /// alone.
    package func verified(_ key: String) throws(PipelineFileError) -> PipelineTool? {
        try check(entry(key))
    }

    /// A new empty folder (0700) for one build, beside the entries (same file
    /// system, so the finished build can be renamed into place). Build
    /// folders an hour old (left by a killed run) are removed first.
    package func temporaryFolder(for key: String) throws(PipelineFileError) -> URL {
        removeLeftovers(olderThan: 3600)
        let folder = root.appendingPathComponent(".building-\(key.prefix(16))-\(UUID().uuidString)")
        guard mkdir(folder.path, 0o700) == 0 else {
            throw .cacheUnwritable(path: root.path, reason: String(cString: strerror(errno)))
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
        try seal(folder)
        let target = entry(key)
        defer { try? FileManager.default.removeItem(at: folder) }
        for _ in 0..<3 {
            if rename(folder.path, target.path) == 0, let tool = try check(target) { return tool }
            if let tool = try check(target) { return tool }
            let aside = root.appendingPathComponent(".damaged-\(key.prefix(16))-\(UUID().uuidString)")
            if rename(target.path, aside.path) == 0 { try? FileManager.default.removeItem(at: aside) }
        }
        throw .cacheUnwritable(path: target.path, reason: "could not replace the entry")
    }

    /// The seal of an entry: HMAC-SHA256 under `key` of the executable's
    /// bytes, a 0 byte and the pipeline's name, in hex.
    static func seal(executable: Data, name: Data, key: SymmetricKey) -> String {
        var mac = HMAC<SHA256>(key: key)
        mac.update(data: executable)
        mac.update(data: Data([0]))
        mac.update(data: name)
        return Data(mac.finalize()).map { String(format: "%02x", $0) }.joined()
    }

    /// Makes the built folder's files the caller's alone (0700 and 0600,
    /// whatever the umask) and writes `seal` into it, last.
    func seal(_ folder: URL) throws(PipelineFileError) {
        let key = try sealKey()
        let fd = open(folder.path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard fd >= 0 else { throw PipelineFileCacheFolder.openFailure(path: folder.path, folder: true) }
        defer { close(fd) }
        guard let executable = Self.readPrivate(Self.executableName, in: fd, mode: 0o700),
              let name = Self.readPrivate(Self.nameFile, in: fd, mode: 0o600) else {
            throw .cacheUnwritable(path: folder.path, reason: "the built tool is missing")
        }
        let text = Self.seal(executable: executable, name: name, key: key) + "\n"
        guard Self.writeNew(Self.sealFile, in: fd, bytes: Data(text.utf8), mode: 0o600) else {
            throw .cacheUnwritable(path: folder.appendingPathComponent(Self.sealFile).path, reason: String(cString: strerror(errno)))
        }
    }

    /// The tool in `folder` when its seal matches its files (recomputed
    /// now, from the files as opened); nil when a file is missing or does
    /// not match; throws when the entry or a file of it is not the caller's
    /// alone or is not what it should be (a link, a folder…).
    func check(_ folder: URL) throws(PipelineFileError) -> PipelineTool? {
        let fd = open(folder.path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        if fd < 0, errno == ENOENT { return nil }
        guard fd >= 0 else { throw PipelineFileCacheFolder.openFailure(path: folder.path, folder: true) }
        defer { close(fd) }
        try PipelineFileCacheFolder.require(fd, path: folder.path, rule: .own, folder: true)
        var contents: [String: Data] = [:]
        for name in [Self.sealFile, Self.nameFile, Self.executableName] {
            let path = folder.appendingPathComponent(name).path
            let file = openat(fd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
            if file < 0, errno == ENOENT { return nil }
            guard file >= 0 else { throw PipelineFileCacheFolder.openFailure(path: path, folder: false, parent: fd, name: name) }
            defer { close(file) }
            try PipelineFileCacheFolder.require(file, path: path, rule: .own, folder: false)
            if name == Self.executableName {
                var status = stat()
                guard fstat(file, &status) == 0, status.st_mode & S_IXUSR != 0 else { return nil }
            }
            guard let data = Self.readAll(file) else { return nil }
            contents[name] = data
        }
        guard let seal = contents[Self.sealFile], let nameData = contents[Self.nameFile],
              let executable = contents[Self.executableName],
              let name = String(data: nameData, encoding: .utf8), !name.isEmpty else { return nil }
        let key = try sealKey()
        let expected = Self.seal(executable: executable, name: nameData, key: key)
        guard String(decoding: seal, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines) == expected else { return nil }
        return PipelineTool(executable: folder.appendingPathComponent(Self.executableName), pipelineName: name)
    }

    /// The cache's seal key: `seal-key`, made (32 random bytes, 0600) when
    /// missing; refused unless it is the caller's and nobody else may read it.
    func sealKey() throws(PipelineFileError) -> SymmetricKey {
        let path = root.appendingPathComponent(Self.sealKeyFile).path
        let folder = open(root.path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard folder >= 0 else { throw PipelineFileCacheFolder.openFailure(path: root.path, folder: true) }
        defer { close(folder) }
        var fd = openat(folder, Self.sealKeyFile, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        if fd < 0, errno == ENOENT {
            // Written under a temporary name, then linked: a run at the same time keeps the first key.
            let temporary = ".seal-key-\(UUID().uuidString)"
            let bytes = SymmetricKey(size: .bits256).withUnsafeBytes { Data($0) }
            guard Self.writeNew(temporary, in: folder, bytes: bytes, mode: 0o600) else {
                throw .cacheUnwritable(path: path, reason: String(cString: strerror(errno)))
            }
            let linked = linkat(folder, temporary, folder, Self.sealKeyFile, 0) == 0 || errno == EEXIST
            let reason = String(cString: strerror(errno))
            unlinkat(folder, temporary, 0)
            guard linked else { throw .cacheUnwritable(path: path, reason: reason) }
            fd = openat(folder, Self.sealKeyFile, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        }
        guard fd >= 0 else { throw PipelineFileCacheFolder.openFailure(path: path, folder: false, parent: folder, name: Self.sealKeyFile) }
        defer { close(fd) }
        try PipelineFileCacheFolder.require(fd, path: path, rule: .secret, folder: false)
        guard let bytes = Self.readAll(fd), bytes.count == 32 else {
            throw .cacheNotPrivate(path: path, reason: "is not a 32-byte key (remove it: facepipe makes a new one)")
        }
        return SymmetricKey(data: bytes)
    }

    /// `name` in the folder `folder`, made the caller's alone with `mode`, read whole.
    private static func readPrivate(_ name: String, in folder: Int32, mode: mode_t) -> Data? {
        let fd = openat(folder, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var status = stat()
        guard fstat(fd, &status) == 0, status.st_mode & S_IFMT == S_IFREG, fchmod(fd, mode) == 0 else { return nil }
        return readAll(fd)
    }

    /// Creates `name` in `folder` (it must not exist), `mode` whatever the umask, holding `bytes`.
    private static func writeNew(_ name: String, in folder: Int32, bytes: Data, mode: mode_t) -> Bool {
        let fd = openat(folder, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        guard fchmod(fd, mode) == 0 else { return false }
        var written = 0
        let ok = bytes.withUnsafeBytes { buffer -> Bool in
            while written < buffer.count {
                let n = write(fd, buffer.baseAddress! + written, buffer.count - written)
                if n < 0 { if errno == EINTR { continue }; return false }
                written += n
            }
            return true
        }
        return ok && fsync(fd) == 0
    }

    /// Every byte of the open regular file `fd`, from its start.
    private static func readAll(_ fd: Int32) -> Data? {
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        var offset: off_t = 0
        while true {
            let n = buffer.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, offset) }
            if n < 0 { if errno == EINTR { continue }; return nil }
            if n == 0 { return data }
            data.append(contentsOf: buffer[0..<n])
            offset += off_t(n)
        }
    }
}

/// A tool built from a pipeline file: every facepipe verb with the file's pipeline added.
package struct PipelineTool: Equatable {
    package let executable: URL
    package let pipelineName: String
}
