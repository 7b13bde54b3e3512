#if canImport(Glibc)
import Foundation
import Glibc
import RunFolders
#endif

/// One video file as a run input: one video entry, the input itself,
/// decoded by ``VideoFrames`` from the open descriptor (never loaded
/// whole). Progress counts the container's bytes read by the decoder; the
/// digest is the file's SHA-256, read once more after the frames (in 1 MiB pieces).
struct VideoFileEntrySource: EntryReader {
    let path: String
    private var file: RegularFile?
    private var given = false
    private var readDigest: InputDigest?

    init(path: String) {
        self.path = path
    }

    /// The video of a file already open (export reading the file it checked).
    init(file: RegularFile) {
        self.init(path: file.path)
        self.file = file
    }

    mutating func read() throws -> EntryRead? {
        guard !given else { return nil }
        given = true
        let file = try self.file ?? RegularFile(pathBytes: Array(path.utf8), followingLinks: true)
        self.file = file
        let rawName = Array(URL(fileURLWithPath: path).lastPathComponent.utf8)
        return .video(VideoEntry(index: 0, name: String(decoding: rawName, as: UTF8.self), rawName: rawName,
                                 isWholeInput: true, content: .file(file)))
    }

    mutating func digest() throws -> InputDigest? {
        if readDigest == nil, let file { readDigest = try file.digest() }
        return readDigest
    }

    /// Before and after its frames: nothing or all of the file.
    var position: ReadPosition {
        ReadPosition(unit: .bytes, done: given ? file?.size ?? 0 : 0, total: file?.size)
    }

    /// Bytes of the container read by the decoder, of the file's size.
    func position(decodingVideo bytesRead: Int64) -> ReadPosition {
        ReadPosition(unit: .bytes, done: bytesRead, total: file?.size)
    }
}

extension RunInput {
    /// A single video file: its frames, named `<file name>#<frame>`. The run
    /// names the input `name` (by default the path as given).
    public static func videoFile(path: String, name: String? = nil) -> RunInput {
        RunInput(name: name ?? path, path: path, byteSize: regularFileSize(path), isOneFile: true, reader: { VideoFileEntrySource(path: path) })
    }
}
