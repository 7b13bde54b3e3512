#if canImport(Glibc)
import ArchiveIO
import Foundation
import Glibc
import Pipeline
import RunFolders
#endif

/// The files below a folder as entries, like a tar of it: every file at any
/// depth, in the order of their relative paths' bytes (`a.jpg` before `a/b.jpg`),
/// each numbered by its place in that order. The folders are walked one at
/// a time, each one's names sorted as it is reached (a folder's key is its
/// name and `/`, so the walk meets the paths in that order), and files are
/// read one at a time: memory holds one file plus the names of the folders
/// on the way down to it, never the listing of the whole tree.
///
/// JPEG and PNG files (recognised by their first bytes, ``ContentKind``)
/// are entries; a video file (MP4, MOV, MKV, WebM) is given whole, open,
/// for ``VideoFrames`` to decode from its descriptor; other files,
/// symbolic links (never followed), devices, FIFOs, sockets, files over
/// the size limit and unreadable files or folders are skipped, each with its
/// reason. Folders themselves are not listed. Names are bytes as the OS
/// gives them: a name that is not UTF-8 is read like any other, and its
/// outputs are named as a tar entry of that raw name is
/// (``OutputNames``). In a facepipe output folder below the input (or the
/// input itself), facepipe's own names are skipped
/// (``isOutputFolder(_:)``), so a run whose `--out` is inside its input
/// never reads its own outputs.
struct FolderEntrySource: EntryReader {
    /// One name in a folder, as the walk will meet it.
    private struct Child {
        enum Kind {
            case file(size: Int64)
            /// A folder that could be opened: its files come in its place.
            case folder
            case skipped(reason: String)
        }
        let name: [UInt8]
        let kind: Kind

        /// What the walk sorts a folder's children by: a folder's name and
        /// `/`, as every path below it starts, anything else its name.
        var key: [UInt8] {
            if case .folder = kind { return name + [0x2F] }
            return name
        }
    }

    /// A folder on the way down: its relative path and its sorted children, the next one to visit.
    private struct Level {
        let relativePath: [UInt8]
        let children: [Child]
        var next = 0
    }

    let root: String
    let maxBytes: Int
    /// Nil until the first `read()` lists the root; empty when the walk is done.
    private var levels: [Level]?
    /// Items given out so far: the next one's index.
    private var count = 0
    /// Items below the root, counted before the walk (for progress; names not kept).
    private var counted: Int64?
    private let hash = RunningSHA256()
    private var fileBytes: Int64 = 0

    init(root: String, maxBytes: Int) {
        self.root = root
        self.maxBytes = maxBytes
    }

    mutating func read() throws -> EntryRead? {
        guard let listed = try nextListed() else { return nil }
        let (relativePath, kind) = listed
        let index = count
        count += 1
        let name = String(decoding: relativePath, as: UTF8.self)
        switch kind {
        case .skipped(let reason):
            return .item(.skipped(index: index, name: name, reason: reason))
        case .folder:
            preconditionFailure("nextListed() descends into folders")
        case .file(let size):
            let file = SkippedEntry.Kind.regularFile.rawValue
            // Opened once, as a regular file: a link, FIFO or device planted since the listing is refused, never followed or waited on.
            let opened: RegularFile
            do {
                opened = try RegularFile(pathBytes: path(of: relativePath), followingLinks: false)
            } catch {
                return .item(.skipped(index: index, name: name, reason: "\(file): \(SkippedEntry.Reason.unreadable(error.reason))"))
            }
            // A video (by its first bytes) is decoded from its descriptor, whatever its size;
            // its file is in the digest, read once more in pieces, in its place.
            if let prefix = try? opened.prefix(ContentKind.sniffedBytes), ContentKind(sniffing: prefix) == .video {
                let digest = try? opened.digest()
                hash.update(relativePath + [0] + Array((digest?.sha256 ?? "unreadable").utf8) + [0x0A])
                fileBytes += opened.size
                return .video(VideoEntry(index: index, name: name, rawName: relativePath, isWholeInput: false, content: .file(opened)))
            }
            guard size <= Int64(maxBytes) else {
                return .item(.skipped(index: index, name: name,
                                      reason: "\(file): \(SkippedEntry.Reason.tooLarge(size: size, limit: maxBytes))"))
            }
            let data: [UInt8]
            do {
                data = try opened.readAll(limit: Int64(maxBytes))
            } catch {
                return .item(.skipped(index: index, name: name, reason: "\(file): \(SkippedEntry.Reason.unreadable(error.reason))"))
            }
            hash.update(relativePath + [0] + Array(sha256Hex(data).utf8) + [0x0A])
            fileBytes += Int64(data.count)
            guard ContentKind(sniffing: data.prefix(ContentKind.sniffedBytes)) == .image else {
                return .item(.skipped(index: index, name: name, reason: "\(file): not a JPEG or PNG image"))
            }
            return .item(.entry(ArchiveEntry(archive: root, index: index, name: name, rawName: relativePath, data: data)))
        }
    }

    func digest() throws -> InputDigest? {
        hash.finalize(bytes: fileBytes)
    }

    /// Items given out, of those counted before the walk (of those given
    /// once the walk is done).
    var position: ReadPosition {
        ReadPosition(unit: .entries, done: Int64(count), total: levels?.isEmpty == true ? Int64(count) : counted)
    }

    /// The file's path as the OS knows it: bytes, not necessarily UTF-8.
    private func path(of relativePath: [UInt8]) -> [UInt8] {
        Array(root.utf8) + [0x2F] + relativePath
    }

    // MARK: - The walk

    /// The next non-folder below `root` in the order of relative path
    /// bytes, descending into each folder in its place; nil after the last.
    private mutating func nextListed() throws -> (relativePath: [UInt8], kind: Child.Kind)? {
        if levels == nil {
            guard let top = opendir(root) else { throw FolderUnreadable(path: root, code: errno) }
            levels = [Level(relativePath: [], children: Self.children(top, folder: Array(root.utf8)))]
            counted = Self.openFolder(Array(root.utf8)).map { Self.countItems($0, folder: Array(root.utf8)) }
        }
        while let depth = levels?.indices.last {
            let level = levels![depth]
            guard level.next < level.children.count else {
                levels!.removeLast()
                continue
            }
            levels![depth].next += 1
            let child = level.children[level.next]
            let relativePath = level.relativePath.isEmpty ? child.name : level.relativePath + [0x2F] + child.name
            guard case .folder = child.kind else { return (relativePath, child.kind) }
            let folder = path(of: relativePath)
            guard let handle = Self.openFolder(folder) else {
                return (relativePath, .skipped(reason: Self.unreadableFolderReason(errno)))
            }
            levels!.append(Level(relativePath: relativePath, children: Self.children(handle, folder: folder)))
        }
        return nil
    }

    /// The children of the open folder `handle` (closed here), sorted as the walk meets them.
    private static func children(_ handle: OpaquePointer, folder: [UInt8]) -> [Child] {
        defer { closedir(handle) }
        var children: [Child] = []
        let outputFolder = isOutputFolder(handle)
        while let entry = readdir(handle) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                Array(raw.prefix { $0 != 0 })
            }
            if name == [0x2E] || name == [0x2E, 0x2E] { continue }
            if outputFolder, isOutputName(name) {
                children.append(Child(name: name, kind: .skipped(reason: outputNameReason)))
                continue
            }
            let childPath = folder + [0x2F] + name
            var status = stat()
            guard (childPath + [0]).withUnsafeBufferPointer({ lstat(UnsafeRawPointer($0.baseAddress!).assumingMemoryBound(to: CChar.self), &status) }) == 0 else {
                children.append(Child(name: name, kind: .skipped(reason: "unreadable: \(String(cString: strerror(errno)))")))
                continue
            }
            switch status.st_mode & S_IFMT {
            case S_IFDIR:
                // Opened here to know its place (a folder that cannot be read is listed by its name), and again when reached.
                guard let child = openFolder(childPath) else {
                    children.append(Child(name: name, kind: .skipped(reason: unreadableFolderReason(errno))))
                    continue
                }
                closedir(child)
                children.append(Child(name: name, kind: .folder))
            case S_IFREG:
                children.append(Child(name: name, kind: .file(size: Int64(status.st_size))))
            case let mode:
                let kind: SkippedEntry.Kind = switch mode {
                case S_IFLNK: .symbolicLink
                case S_IFCHR: .characterDevice
                case S_IFBLK: .blockDevice
                case S_IFIFO: .fifo
                case S_IFSOCK: .socket
                default: .other
                }
                let reason = kind == .symbolicLink ? "not followed" : "\(SkippedEntry.Reason.notARegularFile)"
                children.append(Child(name: name, kind: .skipped(reason: "\(kind.rawValue): \(reason)")))
            }
        }
        return children.sorted { $0.key.lexicographicallyPrecedes($1.key) }
    }

    /// How many items the walk will give below the open folder `handle`
    /// (closed here), as ``children(_:folder:)`` sorts them out, without
    /// keeping a name: the progress total. A folder's kind comes from
    /// `readdir` where the file system says it (else `lstat`).
    private static func countItems(_ handle: OpaquePointer, folder: [UInt8]) -> Int64 {
        defer { closedir(handle) }
        let outputFolder = isOutputFolder(handle)
        var count: Int64 = 0
        while let entry = readdir(handle) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                Array(raw.prefix { $0 != 0 })
            }
            if name == [0x2E] || name == [0x2E, 0x2E] { continue }
            let childPath = folder + [0x2F] + name
            var isFolder = Int32(entry.pointee.d_type) == Int32(DT_DIR)
            if Int32(entry.pointee.d_type) == Int32(DT_UNKNOWN) {
                var status = stat()
                isFolder = (childPath + [0]).withUnsafeBufferPointer({ lstat(UnsafeRawPointer($0.baseAddress!).assumingMemoryBound(to: CChar.self), &status) }) == 0
                    && status.st_mode & S_IFMT == S_IFDIR
            }
            if !(outputFolder && isOutputName(name)), isFolder, let child = openFolder(childPath) {
                count += countItems(child, folder: childPath)
            } else {
                count += 1
            }
        }
        return count
    }

    private static func openFolder(_ path: [UInt8]) -> OpaquePointer? {
        (path + [0]).withUnsafeBufferPointer { opendir(UnsafeRawPointer($0.baseAddress!).assumingMemoryBound(to: CChar.self)) }
    }

    private static func unreadableFolderReason(_ code: Int32) -> String {
        "\(SkippedEntry.Kind.directory.rawValue): unreadable: \(String(cString: strerror(code)))"
    }
}

/// A folder or file below a folder input that the OS refuses to read.
struct FolderUnreadable: Error, CustomStringConvertible {
    let path: String
    let code: Int32
    init(path: String, code: Int32) { self.path = path; self.code = code }
    /// `path` as bytes (shown as lossy UTF-8).
    init(path: [UInt8], code: Int32) { self.init(path: String(decoding: path, as: UTF8.self), code: code) }
    var description: String { OSReason(errno: code).description }
}

extension RunInput {
    /// A folder, read recursively (`FolderEntrySource`); the run names it `name`.
    public static func folder(path: String, name: String, maxBytes: Int = 512 << 20) -> RunInput {
        RunInput(name: name, path: path, byteSize: nil, reader: { FolderEntrySource(root: path, maxBytes: maxBytes) })
    }
}
