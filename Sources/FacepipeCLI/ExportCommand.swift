import ArgumentParser
import Foundation
import Pipeline
import PipelineRunning
import RunFolders

/// `facepipe export FORMAT RUN_DIR --out DEST`.
struct ExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write a finished run's kept faces in a training format: coco, yolo, wider, retinaface, pts, webdataset.",
        discussion: """
        Reads RUN_DIR's manifest.csv, run.json and per-image JSON (faces/); nothing is \
        detected again. Every format gets the clean upright images: decoded and turned by \
        EXIF from the run's inputs (whose SHA-256 must still match run.json) and written as \
        PNG into DEST/images/; coco's file_name is relative to annotations.json's folder \
        (images/…), wider's and retinaface's paths to DEST/images/, as their loaders \
        expect. --reference-originals writes no images and points at the files the run \
        read instead, relative to DEST; it refuses archive entries and EXIF-turned images. \
        The same run always gives the same bytes.

        Keypoints (--keypoints, for coco and webdataset): 5 (eyes, nose tip, mouth \
        corners; needs the mesh and irises), mlkit10 or ibug68 (training-annotations). \
        yolo and retinaface write the 5 points, pts the 68.
        """
    )

    @Argument(help: ArgumentHelp("coco, yolo, wider, retinaface, pts or webdataset.", valueName: "format"))
    var format: ExportFormat

    @Argument(help: ArgumentHelp("A finished run's output folder.", valueName: "run-dir"))
    var runDirectory: String

    @Option(name: [.customShort("o"), .long], help: ArgumentHelp("Folder to write the export into (created if missing).", valueName: "DEST"))
    var out: String

    @Option(name: .long, help: ArgumentHelp("Keypoint set of coco and webdataset: 5, mlkit10 or ibug68.", valueName: "SET"))
    var keypoints: KeypointSet = .five

    @Flag(name: .long, help: "Write no images; point at the files the run read, relative to DEST (not for yolo or webdataset; refused for archive entries and EXIF-turned images, whose files are not what the annotations describe).")
    var referenceOriginals = false

    @Option(name: .long, help: "Samples per webdataset shard.")
    var shardSize: Int = 1000

    func validate() throws {
        guard shardSize >= 1 else { throw ValidationError("--shard-size must be at least 1") }
    }

    func run() throws {
        let options = ExportOptions(format: format, keypoints: keypoints,
                                    referenceOriginals: referenceOriginals, shardSize: shardSize)
        let summary: Exporter.Summary
        do {
            summary = try Exporter.export(run: URL(fileURLWithPath: runDirectory), to: URL(fileURLWithPath: out), options: options)
        } catch {
            throw UsageFailure(message: TerminalText.escaped(error.description))
        }
        FileHandle.standardError.write(Data("facepipe: export \(format.rawValue): \(summary.images) images, \(summary.faces) faces, \(summary.files) files in \(TerminalText.escaped(out))\n".utf8))
    }
}

extension ExportFormat: ExpressibleByArgument {}
extension KeypointSet: ExpressibleByArgument {}
