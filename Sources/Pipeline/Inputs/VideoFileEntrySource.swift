import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// One video file as a run input: its frames, each an entry
/// (``VideoFrameReader``), decoded from the open descriptor (never loaded
/// whole). Progress counts the container's bytes read; the digest is the
/// file's SHA-256, read once more after the frames (in 1 MiB pieces).
struct VideoFileEntrySource: EntrySource {
    let path: String
    let reading: VideoReading
    private var file: OpenFile?
    private var frames: VideoFrameReader?
    private var started = false
    private var readDigest: InputDigest?

    init(path: String, reading: VideoReading) {
        self.path = path
        self.reading = reading
    }

    /// The video of a file already open (export reading the file it checked).
    init(file: OpenFile, reading: VideoReading) {
        self.init(path: file.path, reading: reading)
        self.file = file
    }

    mutating func next() throws -> SourceItem? {
        let rawName = Array(URL(fileURLWithPath: path).lastPathComponent.utf8)
        if !started {
            started = true
            let file = try self.file ?? OpenFile(path: path, followLinks: true)
            self.file = file
            do {
                frames = try reading.frames(of: file, index: 0, rawName: rawName)
            } catch {
                return .unreadable(index: 0, name: String(decoding: rawName, as: UTF8.self), rawName: rawName, reason: "\(error)")
            }
        }
        return frames?.next()
    }

    mutating func digest() throws -> InputDigest? {
        if readDigest == nil, let file { readDigest = try file.digest() }
        frames = nil
        return readDigest
    }

    /// Bytes of the container read by the decoder, of the file's size.
    var position: ReadPosition {
        ReadPosition(unit: .bytes, done: frames?.bytesRead ?? 0, total: file?.size)
    }
}

extension RunInput {
    /// A single video file: its frames, named `<file name>#<frame>`. The run
    /// names the input `name` (by default the path as given).
    public static func videoFile(path: String, name: String? = nil) -> RunInput {
        RunInput(name: name ?? path, path: path, byteSize: regularFileSize(path)) { reading in
            VideoFileEntrySource(path: path, reading: reading)
        }
    }
}
