import ArchiveIO
import Foundation
import ImageCodecs
#if canImport(Glibc)
import Glibc
#endif

/// The files below a folder as entries, like a tar of it: every file at any
/// depth, in the order of their relative paths' bytes (`a.jpg` before `a/b.jpg`),
/// each numbered by its place in that order. Files are read one at a time, so
/// memory holds one file plus the listing of names.
///
/// JPEG and PNG files (recognised by their first bytes) are entries; a
/// video file (MP4, MOV, MKV, WebM, by its first bytes) is a sequence of
/// frame entries, decoded from its open descriptor (``VideoFrameReader``);
/// other
/// files, symbolic links (never followed), devices, FIFOs, sockets, files over
/// the size limit and unreadable files or folders are skipped, each with its
/// reason. Folders themselves are not listed. Names are bytes as the OS
/// gives them: a name that is not UTF-8 is read like any other, and its
/// outputs are named as a tar entry of that raw name is
/// (``OutputNames``). In a facepipe output folder below the input (or the
/// input itself), facepipe's own names are skipped
/// (``isOutputFolder(_:)``), so a run whose `--out` is inside its input
/// never reads its own outputs.
struct FolderEntrySource: EntrySource {
    private struct Listed {
        enum Kind {
            case file(size: Int64)
            case skipped(reason: String)
        }
        let relativePath: [UInt8]
        let kind: Kind
    }

    let root: String
    let maxBytes: Int
    private var listing: [Listed]?
    private var cursor = 0
    private let hash = RunningSHA256()
    private var fileBytes: Int64 = 0

    let reading: VideoReading
    /// The video whose frames are being given out, and its file.
    private var video: (frames: VideoFrameReader?, file: OpenFile, relativePath: [UInt8])?

    init(root: String, maxBytes: Int, reading: VideoReading = .standard) {
        self.root = root
        self.maxBytes = maxBytes
        self.reading = reading
    }

    mutating func next() throws -> SourceItem? {
        if let video {
            if let item = video.frames?.next() { return item }
            finishVideo()
        }
        let listing = try self.listing ?? Self.list(root: root)
        self.listing = listing
        guard cursor < listing.count else { return nil }
        let index = cursor
        cursor += 1
        let listed = listing[index]
        let name = String(decoding: listed.relativePath, as: UTF8.self)
        switch listed.kind {
        case .skipped(let reason):
            return .skipped(index: index, name: name, reason: reason)
        case .file(let size):
            let file = SkippedEntry.Kind.regularFile.rawValue
            // A video (by its first bytes) is decoded from its descriptor, whatever its size.
            if let opened = try? OpenFile(pathBytes: path(of: listed.relativePath), followLinks: false),
               let prefix = try? opened.prefix(VideoReading.sniffedBytes), VideoReading.isVideo(prefix) {
                do {
                    let frames = try reading.frames(of: opened, index: index, rawName: listed.relativePath)
                    video = (frames, opened, listed.relativePath)
                    return try next()
                } catch {
                    video = (nil, opened, listed.relativePath)
                    finishVideo()
                    return .unreadable(index: index, name: name, rawName: listed.relativePath, reason: "\(error)")
                }
            }
            guard size <= Int64(maxBytes) else {
                return .skipped(index: index, name: name,
                                reason: "\(file): \(SkippedEntry.Reason.tooLarge(size: size, limit: maxBytes))")
            }
            let data: [UInt8]
            do {
                data = try Self.read(path(of: listed.relativePath), limit: maxBytes)
            } catch {
                return .skipped(index: index, name: name, reason: "\(file): \(SkippedEntry.Reason.unreadable("\(error)"))")
            }
            hash.update(listed.relativePath + [0] + Array(sha256Hex(data).utf8) + [0x0A])
            fileBytes += Int64(data.count)
            guard ImageFormat(sniffing: data) != nil else {
                return .skipped(index: index, name: name, reason: "\(file): not a JPEG or PNG image")
            }
            return .entry(ArchiveEntry(archive: root, index: index, name: name, rawName: listed.relativePath, data: data))
        }
    }

    /// Adds the finished video's file to the digest (read once more, in pieces) and lets it go.
    private mutating func finishVideo() {
        guard let video else { return }
        self.video = nil
        let digest = try? video.file.digest()
        hash.update(video.relativePath + [0] + Array((digest?.sha256 ?? "unreadable").utf8) + [0x0A])
        fileBytes += video.file.size
    }

    func digest() throws -> InputDigest? {
        hash.finalize(bytes: fileBytes)
    }

    /// Items of the listing read, of all listed (unknown until the first `next()` lists the folder).
    var position: ReadPosition {
        ReadPosition(unit: .entries, done: Int64(cursor), total: listing.map { Int64($0.count) })
    }

    /// The file's path as the OS knows it: bytes, not necessarily UTF-8.
    private func path(of relativePath: [UInt8]) -> [UInt8] {
        Array(root.utf8) + [0x2F] + relativePath
    }

    // MARK: - Listing

    /// Every non-folder below `root`, sorted by relative path bytes.
    private static func list(root: String) throws -> [Listed] {
        var listed: [Listed] = []
        guard let top = opendir(root) else { throw FolderUnreadable(path: root, code: errno) }
        walk(top, folder: Array(root.utf8), relative: [], into: &listed)
        return listed.sorted { $0.relativePath.lexicographicallyPrecedes($1.relativePath) }
    }

    /// Lists the children of the open folder `handle` (closed here), recursing into subfolders.
    private static func walk(_ handle: OpaquePointer, folder: [UInt8], relative: [UInt8], into listed: inout [Listed]) {
        defer { closedir(handle) }
        let outputFolder = isOutputFolder(handle)
        while let entry = readdir(handle) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                Array(raw.prefix { $0 != 0 })
            }
            if name == [0x2E] || name == [0x2E, 0x2E] { continue }
            let childRelative = relative.isEmpty ? name : relative + [0x2F] + name
            if outputFolder, isOutputName(name) {
                listed.append(Listed(relativePath: childRelative, kind: .skipped(reason: outputNameReason)))
                continue
            }
            let childPath = folder + [0x2F] + name
            var status = stat()
            guard (childPath + [0]).withUnsafeBufferPointer({ lstat(UnsafeRawPointer($0.baseAddress!).assumingMemoryBound(to: CChar.self), &status) }) == 0 else {
                listed.append(Listed(relativePath: childRelative, kind: .skipped(reason: "unreadable: \(String(cString: strerror(errno)))")))
                continue
            }
            switch status.st_mode & S_IFMT {
            case S_IFDIR:
                let child = (childPath + [0]).withUnsafeBufferPointer { opendir(UnsafeRawPointer($0.baseAddress!).assumingMemoryBound(to: CChar.self)) }
                guard let child else {
                    listed.append(Listed(relativePath: childRelative, kind: .skipped(reason: "\(SkippedEntry.Kind.directory.rawValue): unreadable: \(String(cString: strerror(errno)))")))
                    continue
                }
                walk(child, folder: childPath, relative: childRelative, into: &listed)
            case S_IFREG:
                listed.append(Listed(relativePath: childRelative, kind: .file(size: Int64(status.st_size))))
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
                listed.append(Listed(relativePath: childRelative, kind: .skipped(reason: "\(kind.rawValue): \(reason)")))
            }
        }
    }

    /// The bytes of the regular file at `path`, opened without following a
    /// link planted since the listing, at most `limit` bytes.
    private static func read(_ path: [UInt8], limit: Int) throws -> [UInt8] {
        let fd = (path + [0]).withUnsafeBufferPointer {
            open(UnsafeRawPointer($0.baseAddress!).assumingMemoryBound(to: CChar.self), O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        }
        guard fd >= 0 else { throw FolderUnreadable(path: path, code: errno) }
        defer { close(fd) }
        var status = stat()
        guard fstat(fd, &status) == 0 else { throw FolderUnreadable(path: path, code: errno) }
        guard status.st_mode & S_IFMT == S_IFREG else { throw FolderUnreadable(path: path, code: EINVAL) }
        var data: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw FolderUnreadable(path: path, code: errno)
            }
            if count == 0 { return data }
            data.append(contentsOf: chunk[0..<count])
            if data.count > limit { throw FolderUnreadable(path: path, code: EFBIG) }
        }
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
        RunInput(name: name, path: path, byteSize: nil) { reading in FolderEntrySource(root: path, maxBytes: maxBytes, reading: reading) }
    }
}
