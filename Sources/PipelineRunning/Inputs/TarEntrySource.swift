import ArchiveIO
import Foundation
import RunFolders

/// Entries of a tar (or compressed tar, or zip) file or stream through
/// ``TarReader``, hashed as libarchive reads them. Directory headers are
/// passed over: they hold nothing to process or to report. A member that
/// is a video (by its first bytes, ``ContentKind``) is given whole, its
/// bytes in memory like any member's (at most `maxEntryBytes`; a larger
/// video is skipped as too large), for ``VideoFrames`` to decode.
struct TarEntrySource: EntryReader {
    let reader: TarReader
    let hash: RunningSHA256

    /// Reads the file at `path`.
    init(path: String, maxEntryBytes: Int) throws {
        let hash = RunningSHA256()
        reader = try TarReader(path: path, options: .init(maxEntryBytes: maxEntryBytes), observer: hash.update)
        self.hash = hash
    }

    /// Reads from `fileDescriptor` (left open), named `name` in messages.
    init(fileDescriptor: Int32, name: String, maxEntryBytes: Int) throws {
        let hash = RunningSHA256()
        reader = try TarReader(fileDescriptor: fileDescriptor, name: name,
                               options: .init(maxEntryBytes: maxEntryBytes), observer: hash.update)
        self.hash = hash
    }

    mutating func read() throws -> EntryRead? {
        while true {
            switch try reader.next() {
            case nil:
                return nil
            case .file(let entry)? where ContentKind(sniffing: entry.data.prefix(ContentKind.sniffedBytes)) == .video:
                return .video(VideoEntry(index: entry.index, name: entry.name, rawName: entry.rawName, isWholeInput: false,
                                         content: .bytes(entry.data)))
            case .file(let entry)?:
                return .item(.entry(entry))
            case .skipped(let skipped)? where skipped.kind == .directory:
                continue
            case .skipped(let skipped)? where skipped.kind == .regularFile:
                if case .unreadable(let reason) = skipped.reason {
                    return .item(.unreadable(index: skipped.index, name: skipped.name, rawName: skipped.rawName, reason: reason))
                }
                return .item(.skipped(index: skipped.index, name: skipped.name,
                                      reason: "\(skipped.kind.rawValue): \(skipped.reason)"))
            case .skipped(let skipped)?:
                return .item(.skipped(index: skipped.index, name: skipped.name,
                                      reason: "\(skipped.kind.rawValue): \(skipped.reason)"))
            }
        }
    }

    /// Bytes of the file read against its size (no total for a stream).
    var position: ReadPosition {
        ReadPosition(unit: .bytes, done: reader.bytesRead, total: reader.fileSize)
    }

    mutating func digest() throws -> InputDigest? {
        try reader.readToEnd()
        return hash.finalize()
    }
}

extension RunInput {
    /// An archive file; the manifest names it by its last path component.
    /// Anything but a regular file there (a FIFO, a device) is a stream.
    public static func archive(path: String, maxEntryBytes: Int = 512 << 20) -> RunInput {
        let size = regularFileSize(path)
        return RunInput(name: URL(fileURLWithPath: path).lastPathComponent, path: path, byteSize: size, isStream: size == nil, reader: {
            try TarEntrySource(path: path, maxEntryBytes: maxEntryBytes)
        })
    }

    /// A tar (or compressed tar) stream on an open descriptor: standard
    /// input, a pipe. It can be read only once; the caller keeps the
    /// descriptor open for the run.
    public static func archiveStream(fileDescriptor: Int32, name: String, path: String,
                                     maxEntryBytes: Int = 512 << 20) -> RunInput {
        RunInput(name: name, path: path, byteSize: nil, isStream: true, reader: {
            try TarEntrySource(fileDescriptor: fileDescriptor, name: path, maxEntryBytes: maxEntryBytes)
        })
    }
}

/// The size of the regular file at `path` (following links), nil for
/// anything else (a FIFO, a device) or when it cannot be examined.
func regularFileSize(_ path: String) -> Int64? {
    var status = stat()
    guard stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return nil }
    return Int64(status.st_size)
}
