import ArchiveIO
import Crypto
#if canImport(Glibc)
import Glibc
#endif

/// Reading, checking and removing the files facepipe keeps below the output
/// folder (the stage cache, completion records, the outputs a record names),
/// always relative to the folder's handle and one component at a time with
/// `O_NOFOLLOW`: a link planted anywhere on the way (`DIR/.cache →
/// /elsewhere`) is never followed, so nothing outside the folder is read
/// as a record or removed.
extension OutputDirectory {
    /// Size and SHA-256 of a file, as a completion record keeps them for each output.
    struct FileDigest: Equatable {
        var bytes: Int
        var sha256: String
    }

    /// Creates the folder `relativePath` (and its parents) when missing;
    /// throws naming a link or a file in the way.
    func makeFolder(_ relativePath: String) throws {
        try SafeOutputPath.checkRelative(relativePath)
        let folder = try openFolder(relativePath.split(separator: "/").map(String.init), relativePath: relativePath)
        if folder != descriptor { close(folder) }
    }

    /// The bytes of the regular file at `relativePath`, when it exists, is at
    /// most `limit` bytes and neither it nor a folder on the way is a link;
    /// nil otherwise (a record that cannot be read is recomputed).
    func readRecord(_ relativePath: String, limit: Int) -> [UInt8]? {
        withRegularFile(relativePath) { file, size -> [UInt8]? in
            guard size <= limit else { return nil }
            var bytes = [UInt8](repeating: 0, count: size)
            var filled = 0
            while filled < size {
                let result = bytes.withUnsafeMutableBytes { Glibc.read(file, $0.baseAddress! + filled, size - filled) }
                if result < 0, errno == EINTR { continue }
                guard result > 0 else { return nil }
                filled += result
            }
            return bytes
        } ?? nil
    }

    /// Size and SHA-256 of the regular file at `relativePath`, read in one
    /// pass; nil when it is missing, a link, not a regular file or unreadable.
    func digest(of relativePath: String) -> FileDigest? {
        withRegularFile(relativePath) { file, _ -> FileDigest? in
            var hasher = SHA256()
            var total = 0
            var buffer = [UInt8](repeating: 0, count: 1 << 20)
            while true {
                let result = buffer.withUnsafeMutableBytes { Glibc.read(file, $0.baseAddress!, $0.count) }
                if result < 0, errno == EINTR { continue }
                guard result >= 0 else { return nil }
                if result == 0 { break }
                buffer.withUnsafeBytes { hasher.update(bufferPointer: UnsafeRawBufferPointer(rebasing: $0[..<result])) }
                total += result
            }
            return FileDigest(bytes: total, sha256: hasher.finalize().hexString)
        } ?? nil
    }

    /// Removes `relativePath` and everything below it without following any
    /// link: a link is removed itself, never what it points to. Nothing
    /// happens when it is absent; a link or a file in place of a folder on
    /// the way throws.
    func removeTree(_ relativePath: String) throws {
        try SafeOutputPath.checkRelative(relativePath)
        var components = relativePath.split(separator: "/").map(String.init)
        let name = components.removeLast()
        guard let parent = try existingFolder(components, relativePath: relativePath) else { return }
        defer { if parent != descriptor { close(parent) } }
        try removeEntry(name, in: parent, relativePath: relativePath)
    }

    // MARK: - Walking without following links

    /// Opens the existing folder `components` below the root; nil when one is
    /// missing; throws when one is a link or not a folder.
    private func existingFolder(_ components: [String], relativePath: String) throws -> Int32? {
        var current = descriptor
        for component in components {
            let next = openat(current, component, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            let code = errno
            if current != descriptor { close(current) }
            guard next >= 0 else {
                if code == ENOENT { return nil }
                throw Failure(path: path + "/" + relativePath,
                              reason: code == ELOOP || code == ENOTDIR
                                ? "\(component) is a symbolic link or not a folder; refusing to follow it out of the output folder"
                                : String(cString: strerror(code)))
            }
            current = next
        }
        return current
    }

    /// Runs `body` on the open regular file at `relativePath` and its size;
    /// nil when the path is unsafe, missing, a link or not a regular file.
    private func withRegularFile<T>(_ relativePath: String, _ body: (Int32, Int) -> T) -> T? {
        guard (try? SafeOutputPath.checkRelative(relativePath)) != nil else { return nil }
        var components = relativePath.split(separator: "/").map(String.init)
        let name = components.removeLast()
        guard let parent = (try? existingFolder(components, relativePath: relativePath)) ?? nil else { return nil }
        defer { if parent != descriptor { close(parent) } }
        // O_NONBLOCK: a FIFO planted at the name must not block the run.
        let file = openat(parent, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard file >= 0 else { return nil }
        defer { close(file) }
        var info = stat()
        guard fstat(file, &info) == 0, info.st_mode & mode_t(S_IFMT) == mode_t(S_IFREG) else { return nil }
        return body(file, Int(info.st_size))
    }

    /// Removes the entry `name` of the open folder `parent`, depth first.
    private func removeEntry(_ name: String, in parent: Int32, relativePath: String) throws {
        func failure(_ code: Int32) -> Failure {
            Failure(path: path + "/" + relativePath, reason: "cannot remove \(name): \(String(cString: strerror(code)))")
        }
        var info = stat()
        guard fstatat(parent, name, &info, AT_SYMLINK_NOFOLLOW) == 0 else {
            if errno == ENOENT { return }
            throw failure(errno)
        }
        guard info.st_mode & mode_t(S_IFMT) == mode_t(S_IFDIR) else {
            guard unlinkat(parent, name, 0) == 0 || errno == ENOENT else { throw failure(errno) }
            return
        }
        let folder = openat(parent, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard folder >= 0 else { throw failure(errno) }
        guard let listing = fdopendir(folder) else {
            let code = errno
            close(folder)
            throw failure(code)
        }
        defer { closedir(listing) }
        var names: [String] = []
        while let item = readdir(listing) {
            let child = withUnsafeBytes(of: item.pointee.d_name) { raw in
                String(cString: raw.bindMemory(to: CChar.self).baseAddress!)
            }
            if child != ".", child != ".." { names.append(child) }
        }
        for child in names {
            try removeEntry(child, in: dirfd(listing), relativePath: relativePath + "/" + child)
        }
        guard unlinkat(parent, name, AT_REMOVEDIR) == 0 || errno == ENOENT else { throw failure(errno) }
    }
}
