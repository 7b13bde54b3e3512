import ImageCore
import VideoIO

/// One video's frames written back into one video file of the output folder
/// (`images/<input>/<video path>`, ``VideoSource/outputName(_:)``), in
/// frame order by the ordered writer, through VideoIO's `VideoEncoder`
/// (H.264 at its documented quality, the source's audio copied, no
/// metadata), into a temporary file renamed into place when the video
/// ends. A frame a stage failed on is not in it.
final class VideoOutput {
    /// The input and the video's index in it.
    let key: [Int]
    /// Relative to the output folder (the manifest's `output`).
    let path: String
    private let file: StreamedFile
    private let encoder: VideoEncoder
    private let source: VideoSource

    init(key: [Int], path: String, directory: OutputDirectory, source: VideoSource, width: Int, height: Int) throws {
        self.key = key
        self.path = path
        self.source = source
        file = try directory.streamedFile(path)
        do {
            encoder = try VideoEncoder(output: file.descriptor, source: source.input, sourceInfo: source.info,
                                       width: width, height: height, encoding: .standard)
        } catch {
            file.discard()
            throw error
        }
    }

    /// The next frame (upright, as drawn), at its source pts.
    func append(_ image: RGBImage, pts: Int64) throws {
        try encoder.append(image, pts: pts)
    }

    /// Flushes the encoder, writes the trailer, renames the file into place.
    func finish() throws {
        do {
            try encoder.finish()
        } catch {
            file.discard()
            throw error
        }
        try file.commit()
    }

    /// Removes the unfinished file.
    func discard() { file.discard() }
}
