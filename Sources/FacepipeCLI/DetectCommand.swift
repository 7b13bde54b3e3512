import ArgumentParser
import FaceAnalysis
import Foundation
import Pipeline
import Pipelines

/// `facepipe detect [options] FILES…`: the `detect` pipeline (the `faces`
/// pipeline's detection and confidence filter, with its defaults and its
/// model checks) over image and video files, one JSON line per image or
/// video frame on stdout.
/// `make eval` scores these lines against labelled boxes; it is also handy
/// for checking a single photo.
struct DetectCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "detect",
        abstract: "Detect faces in image or video files and print one JSON line per image or frame (upright pixels).",
        discussion: """
            Runs the same detection and confidence filter as the `faces` pipeline, with \
            the same defaults (see `facepipe describe detect`). Each line is \
            {"file", "width", "height", "faces": [{"x", "y", "w", "h", "score"}]} with the \
            kept faces in pixels of the upright image (EXIF orientation applied), in the \
            detector's order (highest score first). Boxes are axis-aligned; for a face \
            turned in-plane by more than 10° the box grows with the roll, so that it matches \
            a label of the face's own size and one drawn around the turned face. A video \
            (MP4, MOV, MKV, WebM) gives a line per frame, with its "frame" (0-based) and \
            "time" (seconds), turned by the container's rotation; --every N or --fps F \
            searches fewer frames, as `facepipe run` does. A file that cannot be read or decoded \
            gives {"file", "error"} and the exit status is 1; the other files are still \
            processed. Models are verified by SHA-256 before the first file (exit 2 when \
            one is missing or wrong).
            """
    )

    private static let defaults = Pipelines.facesDetection.options

    @Option(help: "Detector: accurate (YuNet-s over the picture, BlazeFace confirming its candidates and reading the whole frame), yunet (YuNet-s alone, docs/YUNET.md), pyramid (BlazeFace short range on an image pyramid + the whole frame), fast (short range, whole frame), sparse (full range sparse, whole frame).")
    var mode: DetectorMode = defaults.mode

    @Option(help: "Detector confidence floor (0…1; values below 0.5 act as 0.5).")
    var minScore: Float = defaults.minScore

    @Option(help: "Keep faces with at least this confidence (0…1), as the faces pipeline's filter.")
    var minConfidence: Float = Pipelines.facesMinConfidence

    @Option(help: ArgumentHelp("Smallest face to find: pixels (20px) or a fraction of the image width (0.05, ML Kit's minFaceSize). In accurate mode it also sets how fine the pyramid goes.", valueName: "SIZE"))
    var minFaceSize: FaceSize = defaults.minFaceSize

    @Option(name: [.customShort("j"), .long], help: "Entries processed at once (default: this machine's core count).")
    var workers: Int?

    @Option(help: ArgumentHelp("Folder with the verified .tflite models (searched first; then $FACEPIPE_MODELS, the installed share folder, the checkout, ~/.cache/facepipe/models).", valueName: "DIR"))
    var models: String?

    @Option(name: .long, help: ArgumentHelp("Videos: search frames 0, N, 2N… (default: every frame).", valueName: "N"))
    var every: Int?

    @Option(name: .long, help: ArgumentHelp("Videos: search F frames per second, each the frame nearest to k/F s (default: every frame).", valueName: "F"))
    var fps: Double?

    @Argument(help: "JPEG or PNG files, or videos (a line per frame).")
    var files: [String]

    func validate() throws {
        guard !files.isEmpty else { throw ValidationError("give at least one image or video file") }
        do { _ = try FrameSelection.fromFlags(every: every, fps: fps) } catch { throw ValidationError(error.description) }
    }

    func run() async throws {
        let pipeline = Pipelines.detect(DetectFaces(mode, minFaceSize: minFaceSize, minScore: minScore,
                                                    canvasArithmetic: Self.defaults.canvasArithmetic),
                                        minConfidence: minConfidence)
        let plan = try ModelSearchPath.forThisProcess(option: models).compile(pipeline)
        let selection: FrameSelection
        do { selection = try FrameSelection.fromFlags(every: every, fps: fps) } catch { throw UsageFailure(message: error.description) }
        let summary: RunSummary
        do {
            summary = try await PipelineRunner.runJSONLines(plan, inputs: files.map { RunInput.imageOrVideoFile(path: $0) },
                                                            output: FileHandle.standardOutput,
                                                            workers: workers ?? RunConfiguration.defaultWorkers,
                                                            video: VideoReading(selection: selection))
        } catch {
            throw UsageFailure(message: "\(error)")
        }
        if summary.exitStatus != .ok { throw ExitCode(summary.exitStatus.rawValue) }
    }
}

extension DetectorMode: ExpressibleByArgument {}

extension FaceSize: ExpressibleByArgument {
    public init?(argument: String) { self.init(text: argument) }
    public var defaultValueDescription: String { description }
}
