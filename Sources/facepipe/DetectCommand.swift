import ArgumentParser
import FaceAnalysis
import Foundation
import ImageCodecs
import ImageCore
import Pipeline

/// `facepipe detect [--mode fast|accurate|sparse] FILES…`: face boxes for
/// image files, one JSON line per file. `make eval` scores these lines
/// against labelled boxes; it is also handy for checking a single photo.
struct DetectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "detect",
        abstract: "Detect faces in image files and print one JSON line per file (upright pixels).",
        discussion: """
            Each line is {"file", "width", "height", "faces": [{"x", "y", "w", "h", "score"}]} \
            with boxes in pixels of the upright image (EXIF orientation applied), \
            faces sorted by score. A file that cannot be read or decoded gives \
            {"file", "error"} and the exit status is 1; the other files are still processed.
            """
    )

    @Option(help: "Detector: fast (short range), accurate (full range + tiles), sparse (full range sparse).")
    var mode: DetectorMode = .fast

    @Option(help: "Drop faces scoring below this (0.5…1; lower values act as 0.5).")
    var minScore: Float = 0.5

    @Option(help: "Drop faces narrower than this fraction of the image width (ML Kit's minFaceSize). In accurate mode it also sets how small the tiles go; 0 searches as fine as the model allows.")
    var minFaceSize: Float = 0.1

    @Option(help: "Directory holding the MediaPipe .tflite files.")
    var models: String = "models"

    @Argument(help: "JPEG or PNG files.")
    var files: [String]

    func validate() throws {
        guard !files.isEmpty else { throw ValidationError("give at least one image file") }
        do { try options.validate() } catch { throw ValidationError(error.description) }
    }

    private var options: FaceDetectionOptions {
        FaceDetectionOptions(mode: mode, minFaceSize: minFaceSize, minScore: minScore)
    }

    func run() throws {
        let faceModels: FaceModels
        do {
            faceModels = try FaceModels(directory: URL(fileURLWithPath: models, isDirectory: true))
        } catch {
            throw UsageFailure(message: error.description)
        }
        let analyzer = FaceAnalyzer(models: faceModels)
        let decoder = ImageDecoder()
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        var failures = 0
        for file in files {
            let line: Data
            do {
                let result = try detect(file, analyzer: analyzer, decoder: decoder)
                line = try encoder.encode(result)
            } catch let failure as DetectFailure {
                failures += 1
                line = try encoder.encode(DetectErrorLine(file: file, error: failure.message))
            }
            FileHandle.standardOutput.write(line + Data("\n".utf8))
        }
        if failures > 0 { throw ExitCode(ExitStatus.someEntriesFailed.rawValue) }
    }

    private func detect(_ file: String, analyzer: FaceAnalyzer, decoder: ImageDecoder) throws(DetectFailure) -> DetectLine {
        let bytes: Data
        do {
            bytes = try Data(contentsOf: URL(fileURLWithPath: file), options: .mappedIfSafe)
        } catch {
            throw DetectFailure(message: "cannot read \(file): \(error.localizedDescription)")
        }
        let image: RGBImage
        do {
            image = try decoder.decode(bytes).uprightImage()
        } catch {
            throw DetectFailure(message: "cannot decode \(file): \(error.description)")
        }
        let faces: [FaceDetection]
        do {
            faces = try analyzer.detect(in: image, options: options)
        } catch {
            throw DetectFailure(message: "detection failed on \(file): \(error.description)")
        }
        return DetectLine(file: file, width: image.width, height: image.height, faces: faces.map(DetectLine.Face.init))
    }
}

extension DetectorMode: ExpressibleByArgument {}

/// A per-file failure: reported on that file's line, the run goes on.
private struct DetectFailure: Error {
    let message: String
}

/// One output line of `facepipe detect`.
private struct DetectLine: Encodable {
    struct Face: Encodable {
        let x, y, w, h, score: Float

        init(_ detection: FaceDetection) {
            x = detection.box.x
            y = detection.box.y
            w = detection.box.width
            h = detection.box.height
            score = detection.score
        }
    }

    let file: String
    let width: Int
    let height: Int
    let faces: [Face]
}

private struct DetectErrorLine: Encodable {
    let file: String
    let error: String
}
