import Dispatch
import FaceAnalysis
import ImageCore
import Pipeline
import RunFolders
import Synchronization
import VideoIO

/// One video's frames written back into one video file of the output folder
/// (`images/<input>/<video path>`, ``VideoSource/outputName(_:)``), in
/// frame order by the ordered writer, through VideoIO's `VideoEncoder`
/// (H.264 at its documented quality, the source's audio copied under a
/// rebuilt codec configuration or re-encoded, no metadata), into a temporary file renamed into place when the video
/// ends. A frame a stage failed on is not in it.
///
/// With `cover` (a pipeline that redacts), a tracked face is also covered
/// in the frames where the detector missed it (``TrackCover``): frames wait
/// here until `reach` later frames are known (at most `reach + 1` held),
/// then get the extra regions redacted as the face's own and are encoded.
///
/// The writer hands each frame over in order (``append(_:pts:trackedFaces:)``)
/// and goes on: the frames are encoded on the video's own serial queue, one
/// after another, at most ``handedOver`` waiting there. A failure there is
/// thrown by the next call (the run stops, the file is discarded).
///
/// `@unchecked Sendable`: the encoder, the cover's state and the counts are
/// touched only on `queue` once the output is made (`finish()` and the
/// readers of `notes` and `coveredRegions` wait for it first); the failure
/// is behind its own lock.
final class VideoOutput: @unchecked Sendable {
    /// The input and the video's index in it.
    let key: [Int]
    /// Relative to the output folder (the manifest's `output`).
    let path: String
    private let file: StreamedFile
    private let encoder: VideoEncoder
    private let source: VideoSource
    /// How a missed face is covered, and the frames waiting for it.
    private let cover: Redact?
    private var tracks: TrackCover
    private var waiting: [(image: RGBImage, pts: Int64)] = []
    /// Regions covered so far where a tracked face was missed (read after ``finish()``).
    private(set) var coveredRegions = 0
    /// Where the frames are encoded, in order.
    private let queue = DispatchQueue(label: "facepipe.video-output")
    /// Frames handed over and not yet encoded, at most.
    static let handedOver = 2
    private let room = DispatchSemaphore(value: VideoOutput.handedOver)
    /// The first failure on `queue`; later frames are dropped.
    private let failure = Mutex<(any Error)?>(nil)

    init(key: [Int], path: String, directory: OutputDirectory, source: VideoSource, width: Int, height: Int,
         cover: (redact: Redact, reach: Int)? = nil) throws {
        self.key = key
        self.path = path
        self.source = source
        self.cover = cover?.redact
        tracks = TrackCover(reach: cover?.reach ?? 0)
        file = try directory.streamedFile(path)
        do {
            encoder = try VideoEncoder(output: file.descriptor, source: source.input, sourceInfo: source.info,
                                       width: width, height: height, encoding: .standard)
        } catch {
            file.discard()
            throw error
        }
    }

    /// The next frame (upright, as drawn), at its source pts, with its
    /// tracked faces (id and box in the same pixels): handed to the queue
    /// (waiting while ``handedOver`` frames are there).
    func append(_ image: RGBImage, pts: Int64, trackedFaces: [(trackID: Int, box: Rect)]) throws {
        if let failure = failure.withLock({ $0 }) { throw failure }
        room.wait()
        queue.async { [self] in
            defer { room.signal() }
            guard failure.withLock({ $0 == nil }) else { return }
            do {
                try encodeFrame(image, pts: pts, trackedFaces: trackedFaces)
            } catch {
                failure.withLock { $0 = error }
            }
        }
    }

    /// On `queue`: the frame into the encoder, or to wait for the cover.
    private func encodeFrame(_ image: RGBImage, pts: Int64, trackedFaces: [(trackID: Int, box: Rect)]) throws {
        guard cover != nil else { return try encoder.append(image, pts: pts) }
        waiting.append((image, pts))
        try encode(tracks.add(trackedFaces))
    }

    /// Encodes the frames that `done` made final (the oldest waiting), with their extra regions covered.
    private func encode(_ done: [TrackCover.Frame]) throws {
        for frame in done {
            var (image, pts) = waiting.removeFirst()
            for region in frame.regions { cover?.cover(region.box, in: &image) }
            coveredRegions += frame.regions.count
            try encoder.append(image, pts: pts)
        }
    }

    /// Waits for the frames handed over, flushes the encoder, writes the
    /// trailer, renames the file into place.
    func finish() throws {
        do {
            try queue.sync {
                if let failure = failure.withLock({ $0 }) { throw failure }
                try encode(tracks.finish())
                try encoder.finish()
            }
        } catch {
            file.discard()
            throw error
        }
        try file.commit()
    }

    /// What the run says of the source's audio streams left out of the
    /// file (VideoIO's `AudioTreatment`: no decoder here, or a rate or
    /// layout its AAC encoder does not take), one sentence each.
    var notes: [String] {
        queue.sync { encoder.droppedAudio }.map { "\(TerminalText.escaped(path)): \($0), left out" }
    }

    /// Removes the unfinished file (once the frames handed over are done with).
    func discard() {
        queue.sync {}
        file.discard()
    }
}
