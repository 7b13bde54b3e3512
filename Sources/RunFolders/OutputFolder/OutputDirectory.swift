import ArchiveIO
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The output folder as an open directory handle: every file facepipe
/// creates, renames or removes below it is reached relative to this handle,
/// one component at a time, with `O_NOFOLLOW` (`openat`, `mkdirat`,
/// `renameat`, `unlinkat`), so a symbolic link planted anywhere below the
/// folder (`DIR/images → /elsewhere`) can neither redirect a write or a
/// removal nor be followed into; the operation fails naming the link
/// instead. A link at a file's own name is replaced, never written through.
/// The folder itself may be a link: the user chose it and it is opened once,
/// here. Owns the descriptor; closes it in `deinit`.
package final class OutputDirectory: @unchecked Sendable {
    // @unchecked: the descriptor is immutable after init; the calls made on
    // it (openat, mkdirat, renameat, unlinkat, fstatat) are thread-safe.
    /// The folder's path, for messages.
    package let path: String
    private let descriptor: Int32

    /// A failed file operation: the path and the OS error, one line.
    package struct Failure: Error, CustomStringConvertible {
        let path: String
        package let reason: String
        /// Whether a component on the way is a symbolic link (or not a folder).
        var isLink = false
        package var description: String { "cannot write \(path): \(reason)" }

        package init(path: String, reason: String, isLink: Bool = false) {
            self.path = path
            self.reason = reason
            self.isLink = isLink
        }
    }

    package init(path: String) throws(Failure) {
        self.path = path
        descriptor = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { throw Failure(path: path, reason: String(cString: strerror(errno))) }
    }

    private init(path: String, descriptor: Int32) {
        self.path = path
        self.descriptor = descriptor
    }

    deinit { close(descriptor) }

    /// The folder `relativePath` below this one (checked by
    /// `SafeOutputPath.checkRelative`), created when missing, reached without
    /// following links.
    package func folder(_ relativePath: String) throws -> OutputDirectory {
        try SafeOutputPath.checkRelative(relativePath)
        let components = relativePath.split(separator: "/").map(String.init)
        guard let folder = try openFolder(components, relativePath: relativePath, create: true) else {
            throw failure(relativePath, ENOENT)
        }
        return OutputDirectory(path: path + "/" + relativePath, descriptor: folder)
    }

    /// Writes `bytes` to `relativePath` (checked by `SafeOutputPath.checkRelative`) by
    /// writing a unique temporary sibling and renaming it over the name, so
    /// a reader sees the whole file or none. Missing folders are created.
    package func write(_ bytes: UnsafeRawBufferPointer, to relativePath: String) throws {
        try SafeOutputPath.checkRelative(relativePath)
        var components = relativePath.split(separator: "/").map(String.init)
        let name = components.removeLast()
        guard let parent = try openFolder(components, relativePath: relativePath, create: true) else {
            throw failure(relativePath, ENOENT)
        }
        defer { if parent != descriptor { close(parent) } }
        let temporary = Self.temporaryName(for: name)
        let file = openat(parent, temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard file >= 0 else { throw failure(relativePath, errno) }
        if let code = Self.writeAll(bytes, to: file) {
            close(file)
            unlinkat(parent, temporary, 0)
            throw failure(relativePath, code)
        }
        if close(file) != 0 {
            let code = errno
            unlinkat(parent, temporary, 0)
            throw failure(relativePath, code)
        }
        // rename replaces a link at the final name; it never writes through it.
        if renameat(parent, temporary, parent, name) != 0 {
            let code = errno
            unlinkat(parent, temporary, 0)
            throw failure(relativePath, code)
        }
    }

    /// A new, empty temporary sibling of `relativePath` (checked by
    /// `SafeOutputPath.checkRelative`; missing folders created, links never
    /// followed), open for reading and writing, for a writer that fills it
    /// piece by piece (a video encoder); ``StreamedFile/commit()`` renames
    /// it over the name, so a reader sees the whole file or none.
    package func streamedFile(_ relativePath: String) throws -> StreamedFile {
        try SafeOutputPath.checkRelative(relativePath)
        var components = relativePath.split(separator: "/").map(String.init)
        let name = components.removeLast()
        guard let parent = try openFolder(components, relativePath: relativePath, create: true) else {
            throw failure(relativePath, ENOENT)
        }
        let ownsParent = parent != descriptor
        let temporary = Self.temporaryName(for: name)
        let file = openat(parent, temporary, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard file >= 0 else {
            let code = errno
            if ownsParent { close(parent) }
            throw failure(relativePath, code)
        }
        return StreamedFile(descriptor: file, parent: parent, ownsParent: ownsParent, temporary: temporary, name: name,
                            path: path + "/" + relativePath)
    }

    /// Creates `name` in this folder as a new, empty file open for writing.
    /// Whatever had the name (an earlier file, a planted link or hard link)
    /// is unlinked first, never opened, so nothing outside the folder is
    /// written through it.
    package func createFile(_ name: String) throws(Failure) -> OutputFile {
        try Self.checkName(name, in: path)
        if unlinkat(descriptor, name, 0) != 0, errno != ENOENT { throw failure(name, errno) }
        let file = openat(descriptor, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard file >= 0 else { throw failure(name, errno) }
        return OutputFile(path: path + "/" + name, descriptor: file)
    }

    /// A new file of this folder that has no name: `O_TMPFILE`, or where the
    /// file system has none, a file created under a fresh name and removed at
    /// once. Open for reading and writing; its space is freed when the
    /// caller, who owns the descriptor, closes it, or when the process ends.
    package func anonymousFile() throws(Failure) -> Int32 {
        // O_TMPFILE is a macro Swift does not import: __O_TMPFILE (0o20000000 on Linux) | O_DIRECTORY.
        let file = openat(descriptor, ".", 0o20000000 | O_DIRECTORY | O_RDWR | O_CLOEXEC, 0o600)
        if file >= 0 { return file }
        for attempt in 0..<100 {
            let name = ".anonymous-\(getpid())-\(attempt)-\(UInt32.random(in: 0...UInt32.max))"
            let named = openat(descriptor, name, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
            if named < 0 {
                if errno == EEXIST { continue }
                throw failure(name, errno)
            }
            unlinkat(descriptor, name, 0)
            return named
        }
        throw failure(".anonymous-*", EEXIST)
    }

    /// Opens (creating when missing) the regular file `name` of this folder
    /// for reading and writing, refusing a link or a file with other hard
    /// links (writing it would change a file outside the folder). The
    /// caller owns the descriptor.
    func openPrivateFile(_ name: String) throws(Failure) -> Int32 {
        try Self.checkName(name, in: path)
        let file = openat(descriptor, name, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard file >= 0 else {
            let code = errno
            throw code == ELOOP ? linkFailure(name, component: name) : failure(name, code)
        }
        var status = stat()
        guard fstat(file, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG, status.st_nlink == 1 else {
            close(file)
            throw Failure(path: path + "/" + name, reason: "not a plain file of the output folder (a device, or hard-linked elsewhere); remove it")
        }
        return file
    }

    /// The bytes of the regular file at `relativePath` below this folder
    /// (at most `limit`), or nil when it is absent, unreadable, larger, or
    /// it or a folder on the way is a link (never followed).
    package func contents(of relativePath: String, limit: Int = 16 << 20) -> [UInt8]? {
        withRegularFile(relativePath) { file, size -> [UInt8]? in
            guard size <= limit else { return nil }
            var bytes = [UInt8](repeating: 0, count: size)
            var filled = 0
            while filled < size {
                let count = bytes.withUnsafeMutableBytes { read(file, $0.baseAddress! + filled, size - filled) }
                if count < 0, errno == EINTR { continue }
                guard count > 0 else { return nil }
                filled += count
            }
            return bytes
        } ?? nil
    }

    /// Runs `body` on the open regular file at `relativePath` below this
    /// folder and its size; nil when the path is unsafe, missing, a link
    /// (or below one), or not a regular file. Used by ``contents(of:limit:)``
    /// and `OutputDirectory+Records.swift`.
    func withRegularFile<T>(_ relativePath: String, _ body: (Int32, Int) -> T) -> T? {
        regularFile(relativePath).map { body($0.descriptor, Int($0.size)) }
    }

    /// The regular file at `relativePath` below this folder, open for
    /// reading; nil when the path is unsafe, missing, a link (or below
    /// one), or not a regular file.
    package func regularFile(_ relativePath: String) -> RegularFile? {
        guard var components = try? Self.components(of: relativePath, in: path) else { return nil }
        let name = components.removeLast()
        guard let parent = (try? openFolder(components, relativePath: relativePath, create: false)) ?? nil else { return nil }
        defer { if parent != descriptor { close(parent) } }
        // RegularFile: no link, and O_NONBLOCK so a FIFO planted at the name cannot block the run.
        return try? RegularFile(name, in: parent, shownAs: path + "/" + relativePath)
    }

    /// The folder `relativePath` below this one when it exists, reached
    /// without following links and never created; nil when it (or a folder
    /// on the way) is missing; throws when one is a link or a file.
    func existingFolder(_ relativePath: String) throws(Failure) -> OutputDirectory? {
        let components = try Self.components(of: relativePath, in: path)
        guard let folder = try openFolder(components, relativePath: relativePath, create: false) else { return nil }
        return OutputDirectory(path: path + "/" + relativePath, descriptor: folder)
    }

    /// Runs `body` with the open folder `components` below this one (this
    /// folder for none), reached one component at a time without following
    /// links and never created; nil when one is missing. The rule every
    /// read of a received folder goes through (``RunFolder``).
    func withFolder<T>(_ components: [String], _ body: (Int32) throws(RunFolderError) -> T) throws(RunFolderError) -> T? {
        let folder: Int32?
        do { folder = try openFolder(components, relativePath: components.joined(separator: "/"), create: false) } catch {
            throw error.isLink ? .symbolicLink(path: error.path) : .unreadable(path: error.path, reason: error.reason)
        }
        guard let folder else { return nil }
        defer { if folder != descriptor { close(folder) } }
        return try body(folder)
    }

    /// The bytes of the file at `relativePath` below this folder, reached
    /// without following links; nil when it is absent. Throws naming the
    /// path when it or a folder on the way is a link, it is not a regular
    /// file, it holds more than `limit` bytes, or it cannot be read.
    func bytes(of relativePath: String, limit: Int) throws(Failure) -> [UInt8]? {
        try withRegularFileStatus(relativePath) { _, _, status throws(Failure) -> [UInt8] in
            guard Int(status.st_size) <= limit else {
                throw Failure(path: path + "/" + relativePath, reason: "\(status.st_size) bytes, over the limit of \(limit)")
            }
            guard let bytes = contents(of: relativePath, limit: limit) else {
                throw Failure(path: path + "/" + relativePath, reason: "unreadable, or replaced while being read")
            }
            return bytes
        }
    }

    /// Calls `body` with the bytes of the file at `relativePath` below this
    /// folder, piece by piece, the file reached and checked as
    /// ``bytes(of:limit:)`` reaches it but of any size; false when it is absent.
    func readPieces(of relativePath: String, _ body: (UnsafeRawBufferPointer) -> Void) throws(Failure) -> Bool {
        try withRegularFileStatus(relativePath) { parent, name, _ throws(Failure) -> Void in
            guard let file = try? RegularFile(name, in: parent) else {
                throw Failure(path: path + "/" + relativePath, reason: Self.notRegularFile)
            }
            do throws(RunFolderError) { try file.read(limit: .max, body) } catch {
                throw Failure(path: path + "/" + relativePath, reason: "unreadable, or replaced while being read: \(error.reason)")
            }
        } != nil
    }

    private static let notRegularFile = "not a regular file (a link, a folder or a device); refusing to read it"

    /// The one way ``bytes(of:limit:)`` and ``readPieces(of:_:)`` reach a
    /// file: its folders opened without following links, then `fstatat`
    /// (no link followed) must find a regular file. Calls `body` with the
    /// open parent folder, the file's name and its status; nil when it is absent.
    private func withRegularFileStatus<T>(_ relativePath: String,
                                          _ body: (Int32, String, stat) throws(Failure) -> T) throws(Failure) -> T? {
        var components = try Self.components(of: relativePath, in: path)
        let name = components.removeLast()
        guard let parent = try openFolder(components, relativePath: relativePath, create: false) else { return nil }
        defer { if parent != descriptor { close(parent) } }
        var status = stat()
        guard fstatat(parent, name, &status, AT_SYMLINK_NOFOLLOW) == 0 else {
            if errno == ENOENT { return nil }
            throw failure(relativePath, errno)
        }
        guard (status.st_mode & S_IFMT) == S_IFREG else {
            throw Failure(path: path + "/" + relativePath, reason: Self.notRegularFile)
        }
        return try body(parent, name, status)
    }

    /// The regular files below the folder `relativePath` (paths relative
    /// to this folder, sorted by bytes), found without following links;
    /// empty when the folder is missing. Links, devices and the temporary
    /// files of ``write(_:to:)`` are left out.
    func regularFiles(below relativePath: String) throws(Failure) -> [String] {
        guard let folder = try existingFolder(relativePath) else { return [] }
        var found: [String] = []
        for entry in try folder.names() where !Self.isTemporaryName(entry) {
            var status = stat()
            guard fstatat(folder.descriptor, entry, &status, AT_SYMLINK_NOFOLLOW) == 0 else { throw folder.failure(entry, errno) }
            switch status.st_mode & S_IFMT {
            case S_IFREG: found.append(relativePath + "/" + entry)
            case S_IFDIR: found += try regularFiles(below: relativePath + "/" + entry)
            default: continue
            }
        }
        return found.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
    }

    /// Gives the regular file `name` of `source` the name `name` in this
    /// folder too: a hard link (`linkat`, which follows no link), or a copy
    /// when the two are on different file systems. An existing entry at the
    /// name is left alone and reported as `false`; `true` when linked or copied.
    func link(_ name: String, from source: OutputDirectory) throws(Failure) -> Bool {
        try Self.checkName(name, in: path)
        if linkat(source.descriptor, name, descriptor, name, 0) == 0 { return true }
        let code = errno
        if code == EEXIST { return false }
        guard code == EXDEV || code == EPERM || code == EMLINK else { throw failure(name, code) }
        var status = stat()
        if fstatat(descriptor, name, &status, AT_SYMLINK_NOFOLLOW) == 0 { return false }
        guard let bytes = try source.bytes(of: name, limit: Int.max) else { throw source.failure(name, ENOENT) }
        do {
            try bytes.withUnsafeBytes { buffer in try write(buffer, to: name) }
        } catch let failure as Failure {
            throw failure
        } catch {
            throw Failure(path: path + "/" + name, reason: "\(error)")
        }
        return true
    }

    /// Renames `name` to `newName` in this folder (replacing a link at
    /// `newName`, never writing through it).
    package func rename(_ name: String, to newName: String) throws(Failure) {
        try Self.checkName(name, in: path)
        try Self.checkName(newName, in: path)
        guard renameat(descriptor, name, descriptor, newName) == 0 else { throw failure(newName, errno) }
    }

    /// Removes `relativePath` below this folder: a file or a link is
    /// unlinked (the link itself, never its target); a folder is emptied the
    /// same way, reached with `O_NOFOLLOW`, then removed. Absent (or below a
    /// missing folder) is fine; a link or a file in place of a folder on the
    /// way throws.
    package func removeItem(_ relativePath: String) throws(Failure) {
        var components = try Self.components(of: relativePath, in: path)
        let name = components.removeLast()
        guard !components.isEmpty else { return try removeEntry(name) }
        let parentPath = components.joined(separator: "/")
        guard let parent = try openFolder(components, relativePath: relativePath, create: false) else { return }
        try OutputDirectory(path: path + "/" + parentPath, descriptor: parent).removeEntry(name)
    }

    /// Removes the temporary files ``write(_:to:)`` leaves when a run is
    /// killed between writing and renaming (`.<name>.<UUID>.tmp`), in the
    /// folder `name` and every folder below it (links are not followed).
    /// Call it only while holding the folder's lock: another run's
    /// temporary files are in use.
    package func removeTemporaryFiles(below name: String) throws(Failure) {
        var status = stat()
        guard fstatat(descriptor, name, &status, AT_SYMLINK_NOFOLLOW) == 0, (status.st_mode & S_IFMT) == S_IFDIR else { return }
        guard let folder = try openFolder([name], relativePath: name, create: false) else { return }
        let child = OutputDirectory(path: path + "/" + name, descriptor: folder)
        for entry in try child.names() {
            if Self.isTemporaryName(entry) {
                guard unlinkat(child.descriptor, entry, 0) == 0 || errno == ENOENT else { throw child.failure(entry, errno) }
            } else {
                try child.removeTemporaryFiles(below: entry)
            }
        }
    }

    // MARK: - Internals

    /// Removes the entry `name` of this folder, depth first, without following links.
    private func removeEntry(_ name: String) throws(Failure) {
        var status = stat()
        guard fstatat(descriptor, name, &status, AT_SYMLINK_NOFOLLOW) == 0 else {
            if errno == ENOENT { return }
            throw failure(name, errno)
        }
        if (status.st_mode & S_IFMT) == S_IFDIR {
            guard let folder = try openFolder([name], relativePath: name, create: false) else { return }
            let child = OutputDirectory(path: path + "/" + name, descriptor: folder)
            for entry in try child.names() { try child.removeEntry(entry) }
            guard unlinkat(descriptor, name, AT_REMOVEDIR) == 0 || errno == ENOENT else { throw failure(name, errno) }
        } else {
            guard unlinkat(descriptor, name, 0) == 0 || errno == ENOENT else { throw failure(name, errno) }
        }
    }

    /// `.<name>.<UUID>.tmp`: hidden, unique, recognisable by ``isTemporaryName(_:)``.
    package static func temporaryName(for name: String) -> String {
        ".\(name).\(UUID().uuidString).tmp"
    }

    package static func isTemporaryName(_ name: String) -> Bool {
        guard name.hasPrefix("."), name.hasSuffix(".tmp") else { return false }
        let stem = name.dropLast(4)
        guard let dot = stem.lastIndex(of: ".") else { return false }
        return UUID(uuidString: String(stem[stem.index(after: dot)...])) != nil
    }

    /// Writes all of `bytes` to `file` (retrying on EINTR); the errno of a failure, or nil.
    static func writeAll(_ bytes: UnsafeRawBufferPointer, to file: Int32) -> Int32? {
        var written = 0
        while written < bytes.count {
            let result = Glibc.write(file, bytes.baseAddress! + written, bytes.count - written)
            if result < 0 {
                if errno == EINTR { continue }
                return errno
            }
            written += result
        }
        return nil
    }

    /// The components of `relativePath`, checked by `SafeOutputPath.checkRelative`.
    private static func components(of relativePath: String, in folder: String) throws(Failure) -> [String] {
        do {
            try SafeOutputPath.checkRelative(relativePath)
        } catch {
            throw Failure(path: folder + "/" + relativePath, reason: "\(error)")
        }
        return relativePath.split(separator: "/").map(String.init)
    }

    private static func checkName(_ name: String, in folder: String) throws(Failure) {
        guard !name.isEmpty, name != ".", name != "..", !name.contains("/") else {
            throw Failure(path: folder + "/" + name, reason: "not a single file name")
        }
    }

    /// The names in this folder, except `.` and `..`.
    package func names() throws(Failure) -> [String] {
        let copy = dup(descriptor)
        guard copy >= 0, let stream = fdopendir(copy) else {
            let code = errno
            if copy >= 0 { close(copy) }
            throw Failure(path: path, reason: String(cString: strerror(code)))
        }
        defer { closedir(stream) }
        rewinddir(stream)
        var names: [String] = []
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(cString: raw.bindMemory(to: CChar.self).baseAddress!)
            }
            if name != ".", name != ".." { names.append(name) }
        }
        return names
    }

    /// Opens (creating when missing and `create`) each folder of
    /// `components` below this one without following links; returns the
    /// last one's descriptor (this folder's own when `components` is empty),
    /// or nil when one is missing and not `create`d.
    private func openFolder(_ components: [String], relativePath: String, create: Bool) throws(Failure) -> Int32? {
        var current = descriptor
        for component in components {
            var next = openat(current, component, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            if next < 0, errno == ENOENT, create {
                if mkdirat(current, component, 0o755) != 0, errno != EEXIST {
                    let code = errno
                    if current != descriptor { close(current) }
                    throw failure(relativePath, code)
                }
                next = openat(current, component, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            }
            let code = errno
            if current != descriptor { close(current) }
            if next < 0, code == ENOENT, !create { return nil }
            guard next >= 0 else {
                // ELOOP or ENOTDIR: the component is a link or a file.
                throw code == ELOOP || code == ENOTDIR ? linkFailure(relativePath, component: component) : failure(relativePath, code)
            }
            current = next
        }
        return current
    }

    private func linkFailure(_ relativePath: String, component: String) -> Failure {
        Failure(path: path + "/" + relativePath,
                reason: "\(component) is a symbolic link or not a folder; refusing to follow it out of the output folder", isLink: true)
    }

    private func failure(_ relativePath: String, _ code: Int32) -> Failure {
        Failure(path: path + "/" + relativePath, reason: String(cString: strerror(code)))
    }
}
