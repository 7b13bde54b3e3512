import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Who may change the folders and files of the pipeline cache, checked on
/// open handles: a tool in the cache is run as the caller, so nobody else
/// may be able to put one there.
///
/// The path is walked from `/` one component at a time with `openat` and
/// `O_NOFOLLOW`, and each handle is checked with `fstat` (never a `stat`
/// of the path, then an open of something else):
///
/// - the folders above the cache (`/`, `/home`, `~`, `~/.cache`, or
///   `$XDG_CACHE_HOME` and its parents) belong to root or the caller and
///   are not writable by group or others, unless sticky like `/tmp` (there
///   others can add names, never move or remove the caller's);
/// - the cache's own folders (`facepipe`, `pipelines`, an entry, the module
///   cache) and the files of an entry belong to the caller and are not
///   writable by group or others; those facepipe makes are made 0700
///   (files 0700 or 0600) whatever the umask.
///
/// A link on the way is refused, except in the part of the base folder
/// that exists when the cache is opened, which is resolved once
/// (`realpath`) and then walked as resolved, so a link someone else swaps
/// later changes nothing.
enum PipelineFileCacheFolder {
    /// What is wrong with a folder or file of the cache.
    enum Problem: Equatable {
        case ownedByAnother(uid: UInt32)
        case ownedByAnotherUser(uid: UInt32)
        case writableByOthers(mode: UInt32)
        case readableByOthers(mode: UInt32)
        case link
        case notAFolder
        case notAFile

        var reason: String {
            let caller = geteuid()
            switch self {
            case .ownedByAnother(let uid):
                return "is owned by uid \(uid), not by you (uid \(caller))"
            case .ownedByAnotherUser(let uid):
                return "is owned by uid \(uid), neither you (uid \(caller)) nor root"
            case .writableByOthers(let mode):
                return "is writable by group or others (mode \(String(mode & 0o7777, radix: 8)))"
            case .readableByOthers(let mode):
                return "is readable by group or others (mode \(String(mode & 0o7777, radix: 8)))"
            case .link: return "is a symbolic link"
            case .notAFolder: return "is not a folder"
            case .notAFile: return "is not a regular file"
            }
        }
    }

    /// How strict a check is.
    enum Rule {
        /// Above the cache: root's or the caller's, not writable by others unless sticky.
        case ancestor
        /// The cache's own folders and files: the caller's, not writable by others.
        case own
        /// A secret: the caller's, neither readable nor writable by others.
        case secret
    }

    /// The problem of the object `status` describes under `rule`, if any.
    static func problem(_ status: stat, rule: Rule) -> Problem? {
        let mode = UInt32(status.st_mode)
        let owner = UInt32(status.st_uid)
        switch rule {
        case .ancestor:
            guard owner == 0 || owner == geteuid() else { return .ownedByAnotherUser(uid: owner) }
            guard mode & 0o022 == 0 || mode & UInt32(S_ISVTX) != 0 else { return .writableByOthers(mode: mode) }
        case .own, .secret:
            guard owner == geteuid() else { return .ownedByAnother(uid: owner) }
            guard mode & 0o022 == 0 else { return .writableByOthers(mode: mode) }
            if rule == .secret, mode & 0o044 != 0 { return .readableByOthers(mode: mode) }
        }
        return nil
    }

    /// Opens (creating when missing, 0700) and checks every folder from `/`
    /// to `base`/`own…`; returns the resolved path of the last one. `base`
    /// is absolute; the part of it that exists may go through links.
    static func open(base: String, own: [String]) throws(PipelineFileError) -> String {
        let (resolved, missing) = try resolveExisting(base)
        let ancestors = resolved.split(separator: "/").map(String.init) + missing
        var fd = Glibc.open("/", O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw .cacheUnwritable(path: "/", reason: String(cString: strerror(errno))) }
        defer { close(fd) }
        try require(fd, path: "/", rule: .ancestor, folder: true)
        var path = ""
        for (i, name) in (ancestors + own).enumerated() {
            path += "/" + name
            let next = try openFolder(name, in: fd, path: path, rule: i < ancestors.count ? .ancestor : .own)
            close(fd)
            fd = next
        }
        return path
    }

    /// `name` in the folder `parent` (at `path`), created 0700 when missing, checked under `rule`.
    static func openFolder(_ name: String, in parent: Int32, path: String, rule: Rule) throws(PipelineFileError) -> Int32 {
        let flags = O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC
        var fd = openat(parent, name, flags)
        if fd < 0, errno == ENOENT {
            guard mkdirat(parent, name, 0o700) == 0 || errno == EEXIST else {
                throw .cacheUnwritable(path: path, reason: String(cString: strerror(errno)))
            }
            fd = openat(parent, name, flags)
        }
        guard fd >= 0 else { throw openFailure(path: path, folder: true, parent: parent, name: name) }
        do {
            try require(fd, path: path, rule: rule, folder: true)
        } catch {
            close(fd)
            throw error
        }
        return fd
    }

    /// Checks the open `fd` (at `path`): its kind and `rule`.
    static func require(_ fd: Int32, path: String, rule: Rule, folder: Bool) throws(PipelineFileError) {
        var status = stat()
        guard fstat(fd, &status) == 0 else { throw .cacheUnwritable(path: path, reason: String(cString: strerror(errno))) }
        let kind = status.st_mode & S_IFMT
        if folder, kind != S_IFDIR { throw .cacheNotPrivate(path: path, reason: Problem.notAFolder.reason) }
        if !folder, kind != S_IFREG { throw .cacheNotPrivate(path: path, reason: Problem.notAFile.reason) }
        if let problem = problem(status, rule: rule) { throw .cacheNotPrivate(path: path, reason: problem.reason) }
    }

    /// The error of an `openat(parent, name)` of `path` that failed with
    /// `errno` (`parent` `AT_FDCWD` for a path). A link opened with
    /// `O_NOFOLLOW | O_DIRECTORY` fails with `ENOTDIR`, so that case looks again.
    static func openFailure(path: String, folder: Bool, parent: Int32 = AT_FDCWD, name: String? = nil) -> PipelineFileError {
        let code = errno
        var status = stat()
        let isLink = fstatat(parent, name ?? path, &status, AT_SYMLINK_NOFOLLOW) == 0 && status.st_mode & S_IFMT == S_IFLNK
        if code == ELOOP || isLink { return .cacheNotPrivate(path: path, reason: Problem.link.reason) }
        if code == ENOTDIR, folder { return .cacheUnwritable(path: path, reason: "not a folder") }
        return .cacheUnwritable(path: path, reason: String(cString: strerror(code)))
    }

    /// The longest existing part of `path`, resolved (`realpath`), and the
    /// names below it that do not exist yet.
    private static func resolveExisting(_ path: String) throws(PipelineFileError) -> (String, [String]) {
        var existing = URL(fileURLWithPath: path).standardizedFileURL.path
        var missing: [String] = []
        while true {
            var status = stat()
            if lstat(existing, &status) == 0 || errno != ENOENT || existing == "/" { break }
            missing.insert((existing as NSString).lastPathComponent, at: 0)
            existing = (existing as NSString).deletingLastPathComponent
        }
        guard let resolved = realpath(existing, nil) else {
            throw .cacheUnwritable(path: existing, reason: String(cString: strerror(errno)))
        }
        defer { free(resolved) }
        return (String(cString: resolved), missing)
    }
}
