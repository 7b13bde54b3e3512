import Foundation
import Pipeline

/// How to run a compiled pipeline. Not part of the pipeline's definition or
/// fingerprint: outputs are byte-identical for any `workers`.
public struct RunConfiguration: Sendable {
    /// The output folder (created if missing; an existing file is refused).
    public var outputDirectory: URL
    /// Entries processed concurrently (default: the number of cores).
    public var workers: Int
    /// Which cached stage results may be reused.
    public var recompute: RecomputePolicy
    /// Reuse entries completed by an earlier, interrupted run into the same folder.
    public var resume: Bool
    /// How many finished entries may wait for an earlier, slower one before
    /// the producer stops reading (bounds memory with the in-flight count).
    public var reorderWindow: Int
    /// How many bytes of output (encoded images, JSON) finished entries
    /// may hold while they wait for an earlier one before the producer
    /// stops reading (default 32 MiB: a dozen 2 MP pictures' PNGs, one
    /// 12 MP picture's). One entry always fits, whatever its size.
    public var reorderBytes: Int = 32 << 20
    /// How many bytes of decoded video frames may be in flight: handed to
    /// the workers, or finished and waiting to be written, each counted at
    /// its RGB size (width × height × 3) until the writer takes it. The
    /// producer decodes no further frame while the next one would exceed it,
    /// unless no frame is in flight (one frame always fits, whatever its
    /// size). Default: 64 MiB per worker, at least 128 MiB (2 workers: five
    /// 4K frames, one 8192×8192 frame at a time). A frame's work on a worker
    /// and the writer's encoder hold more (docs/RUNNING.md, "Memory").
    public var videoFrameBytes: Int

    /// ``videoFrameBytes`` when none is asked for: 64 MiB per worker, at least 128 MiB.
    public static func defaultVideoFrameBytes(workers: Int) -> Int { max(128 << 20, workers * (64 << 20)) }

    /// How workers get their face engine (needed by face stages only;
    /// tests substitute engines that need no models).
    public var faceEngine: FaceEngineFactory
    /// Write images, JSON and crops into numbered tars, `DIR/outputs/000000.tar`,
    /// … (`TarSink`), instead of folders.
    public var outputTar: Bool
    /// With ``outputTar``: the next tar begins before an entry once the
    /// current one holds this many bytes (`--output-tar-size`, default 1 GiB).
    public var outputTarBytes: Int = 1 << 30
    /// Write each input tar's redacted twin, `DIR/redacted/<input>`, in
    /// place of `DIR/images` (`RedactedTars`).
    public var redactedShards: Bool
    /// With ``redactedShards``: also copy members facepipe does not know to
    /// carry no picture (video in containers it does not read, compressed or
    /// archived data, unknown binary: not `NonVisualContent`) into the
    /// shards byte for byte; without it they are left out. Pictures are
    /// never copied (`RedactedTarMember`).
    public var copyUnknown: Bool
    /// Remove another run's results from the output folder before writing
    /// (`OutputFolderRule`); without it such a folder is refused.
    public var overwrite: Bool
    /// How videos among the inputs are read: which frames (`--every`,
    /// `--fps`) and how large a frame may be.
    public var video: VideoReading
    /// Write each video frame's image as a file of its own, like a still's
    /// (`images/<input>/<video>#<frame>.png`), instead of writing a video's
    /// frames into one video file (the default; always so with
    /// ``outputTar``, and ``redactedShards`` leave videos out).
    public var videoFramesAsImages: Bool = false

    /// Workers when none are asked for: this machine's core count.
    public static var defaultWorkers: Int { ProcessInfo.processInfo.activeProcessorCount }

    public init(outputDirectory: URL, workers: Int = RunConfiguration.defaultWorkers,
                recompute: RecomputePolicy = .useCache, resume: Bool = false, reorderWindow: Int? = nil,
                faceEngine: FaceEngineFactory = .builtIn, outputTar: Bool = false, redactedShards: Bool = false,
                copyUnknown: Bool = false, overwrite: Bool = false, video: VideoReading = .standard) {
        self.video = video
        self.faceEngine = faceEngine
        self.outputTar = outputTar
        self.redactedShards = redactedShards
        self.copyUnknown = copyUnknown
        self.overwrite = overwrite
        self.outputDirectory = outputDirectory
        self.workers = workers
        self.recompute = recompute
        self.resume = resume
        self.reorderWindow = reorderWindow ?? max(4 * workers, 8)
        videoFrameBytes = Self.defaultVideoFrameBytes(workers: workers)
    }

    /// What the outputs ask of the producer: every entry processed, or,
    /// with ``redactedShards``, the redacted tars' routing.
    var routing: EntryRouting {
        redactedShards ? RedactedTars.routing(copyUnknown: copyUnknown) : .processEveryEntry
    }

    /// The configuration's checks (``validateFlags(workers:resume:overwrite:outputTar:redactedShards:copyUnknown:)``
    /// and the reorder window and bytes), before a run reads or writes anything.
    func validate() throws(PipelineError) {
        try Self.validateFlags(workers: workers, resume: resume, overwrite: overwrite, outputTar: outputTar,
                               redactedShards: redactedShards, copyUnknown: copyUnknown)
        try video.selection.validate()
        guard reorderWindow >= workers else {
            throw .invalidRunConfiguration("reorder window \(reorderWindow) must be at least the worker count \(workers)")
        }
        guard videoFrameBytes >= 0 else {
            throw .invalidRunConfiguration("video frame bytes \(videoFrameBytes) must not be negative")
        }
        guard outputTarBytes > 0 else {
            throw .invalidRunConfiguration("the output tar size must be at least 1 byte, got \(outputTarBytes)")
        }
        guard reorderBytes >= 0 else {
            throw .invalidRunConfiguration("reorder bytes \(reorderBytes) must not be negative")
        }
    }

    /// The checks of the run flags, in one place: `facepipe run` calls it
    /// from its own validation (before any model is loaded) and
    /// ``PipelineRunner`` through `validate()`, so both say the same.
    public static func validateFlags(workers: Int, resume: Bool, overwrite: Bool, outputTar: Bool,
                                     redactedShards: Bool, copyUnknown: Bool) throws(PipelineError) {
        guard (1...256).contains(workers) else {
            throw .invalidRunConfiguration("--workers must be between 1 and 256, got \(workers)")
        }
        guard !(resume && overwrite) else {
            throw .invalidRunConfiguration("--resume and --overwrite cannot be combined")
        }
        guard !(resume && redactedShards) else {
            throw .invalidRunConfiguration("--resume cannot continue redacted shards (a shard is written whole or not at all); rerun without --resume")
        }
        guard !copyUnknown || redactedShards else {
            throw .invalidRunConfiguration("--copy-unknown goes with --redacted-shards (it says what goes into redacted shards)")
        }
    }
}
