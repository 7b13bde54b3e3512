#if canImport(Glibc)
import Glibc
import RunFolders
import VideoIO
#endif

/// Where a video's frames came from, as its redacted or annotated copy
/// needs it (``VideoOutput``): the container's description and its bytes
/// (the open file, kept open while a frame of it is alive, or a tar
/// member's bytes), whose audio the encoder copies.
package final class VideoSource: Sendable {
    package let info: VideoInfo
    package let input: VideoInput
    /// The file `input` reads (nil for a member's bytes), held open.
    let file: RegularFile?
    /// The video's name as its input stores it (a folder's relative path, a
    /// tar member's name, a file's name): its frames are `<rawName>#<frame>`.
    let rawName: [UInt8]

    init(info: VideoInfo, input: VideoInput, file: RegularFile?, rawName: [UInt8]) {
        self.info = info
        self.input = input
        self.file = file
        self.rawName = rawName
    }

    /// What a run says of a container with more than one video stream:
    /// only one was processed (``VideoInfo/streamNumber``), the others are
    /// in no output (nil for a container of one).
    var otherStreamsNote: String? {
        guard info.videoStreams > 1 else { return nil }
        let name = TerminalText.escaped(String(decoding: rawName, as: UTF8.self))
        return "\(name) has \(info.videoStreams) video streams: only stream \(info.streamNumber) (the first default one) was processed, "
            + "the others are in no output"
    }

    /// The output's file name: the video's own when its extension is of the
    /// family the encoder writes (`.mp4`, `.mov`, `.m4v` for ISO media;
    /// `.mkv` for Matroska), otherwise that family's appended
    /// (`clip.webm.mkv`: WebM cannot hold H.264).
    func outputName(_ path: String) -> String {
        let lowered = path.lowercased()
        let isoMedia = VideoContainerKind(sniffing: Self.prefix(input)) != .matroska
        let kept = isoMedia ? [".mp4", ".mov", ".m4v"] : [".mkv"]
        return kept.contains(where: lowered.hasSuffix) ? path : path + (isoMedia ? ".mp4" : ".mkv")
    }

    private static func prefix(_ input: VideoInput) -> [UInt8] {
        switch input {
        case .bytes(let bytes): return Array(bytes.prefix(VideoContainerKind.sniffLength))
        case .fileDescriptor(let fd):
            var bytes = [UInt8](repeating: 0, count: VideoContainerKind.sniffLength)
            let count = bytes.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, 0) }
            return Array(bytes.prefix(max(count, 0)))
        }
    }
}
