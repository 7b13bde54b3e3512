import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A run folder read back by `facepipe export` and `facepipe report`, which
/// may come from someone else: every file is named relative to the folder
/// and opened one component at a time from it (`openat`), so a name read
/// from the manifest or run.json (`faces_json`, `output`) cannot leave it.
/// Refused: absolute paths, `..`, `.` and empty components, NUL, a symbolic
/// link in any component, and anything but a regular file at the end.
package struct RunFolder: Sendable {
    /// The folder as given on the command line (a link there is the user's choice).
    package let root: URL

    /// Files larger than this are not read (the manifest, run.json, a per-image JSON).
    package static let readLimit: Int64 = 1 << 30

    package init(_ root: URL) {
        self.root = root
    }

    /// The components of `path` when it names something inside a folder,
    /// else nil: not empty, not absolute, no `..`, `.` or empty component, no NUL.
    package static func components(of path: String) -> [String]? {
        guard !path.isEmpty, !path.hasPrefix("/"), !path.utf8.contains(0) else { return nil }
        let parts = path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        guard parts.allSatisfy({ !$0.isEmpty && $0 != "." && $0 != ".." }) else { return nil }
        return parts
    }

    /// The bytes of the regular file `path` inside the folder.
    package func read(_ path: String, limit: Int64 = RunFolder.readLimit) throws(RunFolderError) -> [UInt8] {
        try open(path).readAll(limit: limit)
    }

    /// Whether `path` is inside the folder and names a file or folder there,
    /// no component of it a symbolic link.
    package func holds(_ path: String) -> Bool {
        guard let parts = Self.components(of: path), let folder = try? OutputDirectory(path: root.path) else { return false }
        let found = try? folder.withFolder(Array(parts.dropLast())) { descriptor throws(RunFolderError) in
            var status = stat()
            return fstatat(descriptor, parts[parts.count - 1], &status, AT_SYMLINK_NOFOLLOW) == 0 && status.st_mode & S_IFMT != S_IFLNK
        }
        return found == true
    }

    /// The regular file `path` inside the folder, open: its folders reached
    /// as ``OutputDirectory`` reaches them (no link followed), the file
    /// itself opened by ``RegularFile`` (no link, FIFO or device).
    func open(_ path: String) throws(RunFolderError) -> RegularFile {
        guard let parts = Self.components(of: path) else { throw .outsideFolder(path: path) }
        let folder: OutputDirectory
        do { folder = try OutputDirectory(path: root.path) } catch {
            throw .unreadable(path: root.path, reason: error.reason)
        }
        let file = try folder.withFolder(Array(parts.dropLast())) { descriptor throws(RunFolderError) in
            try RegularFile(parts[parts.count - 1], in: descriptor, shownAs: path)
        }
        guard let file else { throw .unreadable(path: path, reason: String(cString: strerror(ENOENT))) }
        return file
    }
}
