#if canImport(Glibc)
import ArchiveIO
import Foundation
import Glibc
import ImageCodecs
import Pipeline
import RunFolders
#endif

/// A run's input opened again for `export --images`, from the path run.json
/// records, and checked against run.json's SHA-256 (and byte count) before
/// a single entry is given out, so nothing is written from a file that is
/// not the one the run read.
///
/// - a regular file (archive, image or video): opened once through
///   ``RegularFile`` (no link as its last component, never a FIFO, device
///   or socket), its size compared with run.json's, hashed, then read again
///   from the same descriptor (a video's every frame, decoded);
/// - a folder: a first pass hashes its files as the run did
///   (``FolderEntrySource``, links never followed; its videos' files, not
///   decoded), stopping as soon as they hold more bytes than run.json
///   records; a second pass gives the entries.
///
/// Standard input and any other stream cannot be read again and is refused
/// before it is opened. The caller compares the digest again after the
/// entries (a file changed between the two passes is an error too).
enum VerifiedInput {
    /// A file larger than this is refused when run.json records no byte count.
    static let sizeLimit: Int64 = 64 << 30
    /// The largest entry or image file decoded (as in a run).
    static let maxEntryBytes = 512 << 20

    static func open(_ path: String, sha256 expected: String, bytes recorded: Int64?) throws(ExportError) -> any EntrySource {
        var status = stat()
        guard lstat(path, &status) == 0 else {
            throw .inputChanged(input: path, reason: String(cString: strerror(errno)))
        }
        if status.st_mode & S_IFMT == S_IFDIR {
            return try folder(path, sha256: expected, bytes: recorded)
        }
        let file: RegularFile
        do {
            file = try RegularFile(path)
        } catch {
            throw .inputChanged(input: path, reason: error.reason + " (export --images reads only regular files and folders)")
        }
        if let recorded, file.size != recorded {
            throw .inputChanged(input: path, reason: "it has \(file.size) bytes, the run read \(recorded)")
        }
        let hash = RunningSHA256()
        do {
            try file.read(limit: recorded ?? sizeLimit) { hash.update($0) }
        } catch {
            throw .inputChanged(input: path, reason: error.reason)
        }
        let digest = hash.finalize()
        guard digest.sha256 == expected else {
            throw .inputChanged(input: path, reason: "its SHA-256 is \(digest.sha256), the run read \(expected)")
        }
        let kind = ContentKind(sniffing: FileSignature.read(file.descriptor) ?? [])
        if kind == .image {
            let data: [UInt8]
            do {
                data = try file.readAll(limit: Int64(maxEntryBytes))
            } catch {
                throw .inputChanged(input: path, reason: error.reason)
            }
            let name = URL(fileURLWithPath: path).lastPathComponent
            return ImageBytesSource(entry: ArchiveEntry(archive: path, index: 0, name: name, rawName: Array(name.utf8), data: data))
        }
        if kind == .video {
            // Every frame, whatever the run chose: the export takes the frames its manifest lists.
            return VideoFrames(VideoFileEntrySource(file: file), reading: .standard)
        }
        guard lseek(file.descriptor, 0, SEEK_SET) == 0 else {
            throw .inputChanged(input: path, reason: String(cString: strerror(errno)))
        }
        do {
            return ArchiveFileSource(file: file, tar: VideoFrames(try TarEntrySource(fileDescriptor: file.descriptor, name: path,
                                                                                      maxEntryBytes: maxEntryBytes), reading: .standard))
        } catch {
            throw .inputChanged(input: path, reason: "\(error)")
        }
    }

    private static func folder(_ path: String, sha256 expected: String, bytes recorded: Int64?) throws(ExportError) -> any EntrySource {
        let name = URL(fileURLWithPath: path).lastPathComponent
        let limit = recorded ?? sizeLimit
        do {
            // This pass only hashes: videos are refused before their first frame (no
            // frame may have a pixel), which still lists each one's file in the digest.
            var pass = try RunInput.folder(path: path, name: name, maxBytes: maxEntryBytes).open(VideoReading(maxPixels: 0))
            var read: Int64 = 0
            while let item = try pass.next() {
                guard case .entry(let entry) = item else { continue }
                read += Int64(entry.data.count)
                guard read <= limit else {
                    throw ExportError.inputChanged(input: path, reason: "it holds more than the \(limit) bytes the run read")
                }
            }
            let digest = try pass.digest()
            guard digest?.sha256 == expected else {
                throw ExportError.inputChanged(input: path, reason: "its SHA-256 is \(digest?.sha256 ?? "unknown"), the run read \(expected)")
            }
            return try RunInput.folder(path: path, name: name, maxBytes: maxEntryBytes).open()
        } catch let error as ExportError {
            throw error
        } catch {
            throw .inputChanged(input: path, reason: "\(error)")
        }
    }
}

/// An image file's bytes, already read and checked: its one entry.
private struct ImageBytesSource: EntrySource {
    let entry: ArchiveEntry
    private var done = false

    init(entry: ArchiveEntry) { self.entry = entry }

    mutating func next() throws -> SourceItem? {
        guard !done else { return nil }
        done = true
        return .entry(entry)
    }

    func digest() throws -> InputDigest? { InputDigest(sha256: sha256Hex(entry.data), bytes: Int64(entry.data.count)) }

    var position: ReadPosition { ReadPosition(unit: .entries, done: done ? 1 : 0, total: 1) }
}

/// An archive read from the descriptor its check hashed (kept open while read).
private struct ArchiveFileSource: EntrySource {
    let file: RegularFile
    var tar: VideoFrames<TarEntrySource>

    mutating func next() throws -> SourceItem? { try tar.next() }
    mutating func digest() throws -> InputDigest? { try tar.digest() }
    var position: ReadPosition { tar.position }
}
