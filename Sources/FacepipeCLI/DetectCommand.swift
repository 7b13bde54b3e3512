import ArgumentParser
import FaceAnalysis
import Foundation
import Pipeline
import PipelineRunning
import Pipelines
import RunFolders

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

    @Option(help: "Detector confidence floor (0…1; values below 0.5 act as 0.5).")
    var minScore: Float = defaults.minScore

    @OptionGroup var detector: DetectorOptions

    @OptionGroup var work: WorkerOptions

    @OptionGroup var frames: FrameOptions

    @Argument(help: "JPEG or PNG files, or videos (a line per frame).")
    var files: [String]

    func validate() throws {
        guard !files.isEmpty else { throw ValidationError("give at least one image or video file") }
    }

    func run() async throws {
        let pipeline: Pipeline
        do {
            pipeline = try Pipelines.detect(DetectFaces(Self.defaults.mode, minFaceSize: Self.defaults.minFaceSize, minScore: minScore,
                                                        canvasArithmetic: Self.defaults.canvasArithmetic))
                .overriding(detector.overrides)
        } catch {
            throw UsageFailure(message: error.description)
        }
        let plan = try ModelSearchPath.forThisProcess(option: work.models).compile(pipeline)
        let summary: RunSummary
        do {
            summary = try await PipelineRunner.runJSONLines(plan, inputs: files.map { RunInput.imageOrVideoFile(path: $0) },
                                                            output: FileHandle.standardOutput,
                                                            workers: work.workerCount, video: frames.reading)
        } catch {
            throw UsageFailure(message: "\(error)")
        }
        if summary.exitStatus != .ok { throw ExitCode(summary.exitStatus.rawValue) }
    }
}

