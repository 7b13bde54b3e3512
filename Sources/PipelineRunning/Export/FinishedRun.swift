import Foundation
import Pipeline
import RunFolders

/// A finished run as the export reads it: `run.json` (pipeline and inputs),
/// `manifest.csv` (the images, in order, each with its per-image JSON) and
/// the per-image JSON (the kept faces with every point). Nothing is
/// detected again. Every file is read through ``RunFolder``: a name the
/// manifest gives cannot lead outside the folder or through a link. The
/// images are walked one at a time (``images(pointGroups:)``: the manifest
/// row by row, each image's JSON when its rows end), never all held, so an
/// export takes the same memory for any number of images. The export walks
/// them once (``ExportImageSpool`` keeps what its later passes need).
package struct FinishedRun: Sendable {
    /// An input as run.json records it: the manifest's name, the path as
    /// given to `facepipe run`, the SHA-256 of its bytes and their count.
    package typealias Input = RunRecord.InputInfo

    package let directory: URL
    package let pipeline: String
    package let inputs: [Input]

    /// - Parameter directory: the run's output folder. Reads run.json and
    ///   checks that manifest.csv is there with facepipe's header.
    package init(directory: URL) throws(ExportError) {
        self.directory = directory
        let folder = RunFolder(directory)
        let bytes: [UInt8]
        do { bytes = try folder.read(OutputLayout.runRecordName) } catch {
            throw .unreadableRun(file: Self.shown(OutputLayout.runRecordName, in: directory), reason: error.reason)
        }
        let record: RunRecord
        do throws(RunRecord.Failure) { record = try RunRecord(decoding: bytes) } catch {
            throw .unreadableRun(file: Self.shown(OutputLayout.runRecordName, in: directory), reason: error.description)
        }
        pipeline = record.pipeline.name
        inputs = record.inputs
        _ = try images()
    }

    /// The run's images (not the entries that failed), in manifest order,
    /// one at a time. `pointGroups`: the point groups to keep of each face
    /// (the keypoint set's; the rest of the JSON's points is not held).
    package func images(pointGroups: Set<String> = []) throws(ExportError) -> Images {
        try Images(self, pointGroups: pointGroups)
    }

    /// The images of a ``FinishedRun`` in manifest order: ``next()`` reads
    /// the rows of one image (a still, or one frame of a video: consecutive
    /// rows with the same archive, index and frame) and its per-image JSON,
    /// and checks that they agree.
    package final class Images {
        private let run: FinishedRun
        private let folder: RunFolder
        private let manifest: ManifestReader
        private let pointGroups: Set<String>
        /// The first row of the next image, read ahead.
        private var pending: ManifestRow?

        init(_ run: FinishedRun, pointGroups: Set<String>) throws(ExportError) {
            self.run = run
            self.pointGroups = pointGroups
            folder = RunFolder(run.directory)
            do {
                manifest = try ManifestReader(in: folder)
                pending = try manifest.nextRow()
            } catch {
                throw Self.manifestError(error, run.directory)
            }
        }

        /// The next image, or nil after the last.
        package func next() throws(ExportError) -> ExportImage? {
            while let first = pending {
                var keptRows = 0
                var row: ManifestRow? = first
                repeat {
                    if let row, row[.status] == "ok" && !row[.face].isEmpty { keptRows += 1 }
                    do { row = try manifest.nextRow() } catch { throw Self.manifestError(error, run.directory) }
                } while row.map { $0[.archive] == first[.archive] && $0[.index] == first[.index] && $0[.frame] == first[.frame] } == true
                pending = row
                if first[.status] == "error" { continue }
                return try image(first, keptRows: keptRows)
            }
            return nil
        }

        private func image(_ first: ManifestRow, keptRows: Int) throws(ExportError) -> ExportImage {
            let directory = run.directory
            let name = first[.facesJSON]
            guard !name.isEmpty else {
                throw .unreadableRun(file: FinishedRun.shown(OutputLayout.manifestName, in: directory), reason: "\(first[.archive]) \(first[.index]) has no per-image JSON (the \(run.pipeline) pipeline writes none); export needs a run that writes faces/")
            }
            guard RunFolder.components(of: name) != nil, name.hasPrefix(OutputLayout.facesFolder + "/"), name.hasSuffix(".json") else {
                throw .unreadableRun(file: FinishedRun.shown(OutputLayout.manifestName, in: directory), reason: "\(first[.archive]) \(first[.index]): faces_json \(JSONText.quoted(name)) is not a faces/….json path inside the run folder")
            }
            guard folder.holds(name) || !(folder.holds(OutputLayout.outputTarsFolder) || folder.holds(OutputLayout.singleOutputTarName)) else {
                throw .unreadableRun(file: FinishedRun.shown(name, in: directory), reason: "the run wrote its JSON into output tars (outputs/, --output-tar); export reads faces/, so rerun without --output-tar")
            }
            let json = try FinishedRun.decode(ImageJSON.self, file: name, in: folder)
            let image = ExportImage(json, facesJSON: name, pointGroups: pointGroups)
            guard image.frame == Int(first[.frame]) else {
                throw .unreadableRun(file: FinishedRun.shown(name, in: directory), reason: "frame \(image.frame.map(String.init) ?? "none"), the manifest \(first[.frame].isEmpty ? "none" : first[.frame])")
            }
            guard keptRows == image.faces.count else {
                throw .unreadableRun(file: FinishedRun.shown(name, in: directory), reason: "\(image.faces.count) kept faces, the manifest \(keptRows)")
            }
            return image
        }

        private static func manifestError(_ error: ReportError, _ directory: URL) -> ExportError {
            switch error {
            case .unreadable(_, let reason): .unreadableRun(file: FinishedRun.shown(OutputLayout.manifestName, in: directory), reason: reason)
            default: .unreadableRun(file: FinishedRun.shown(OutputLayout.manifestName, in: directory), reason: error.description)
            }
        }
    }

    /// The input that the manifest calls `name`.
    func input(named name: String) -> Input? { inputs.first { $0.name == name } }

    private static func decode<T: Decodable>(_ type: T.Type, file: String, in folder: RunFolder) throws(ExportError) -> T {
        let data: Data
        do {
            data = Data(try folder.read(file))
        } catch {
            throw .unreadableRun(file: shown(file, in: folder.root), reason: error.reason)
        }
        do {
            return try JSONDecoder().decode(T.self, from: data)
        } catch {
            throw .unreadableRun(file: shown(file, in: folder.root), reason: "\(error)")
        }
    }

    /// `file` inside the run folder as the command line named the folder
    /// (`myrun/run.json`), how messages show it.
    static func shown(_ file: String, in directory: URL) -> String {
        let folder = directory.relativePath
        return folder.hasSuffix("/") ? folder + file : folder + "/" + file
    }

    // MARK: What the export reads of the per-image JSON

    struct ImageJSON: Decodable {
        struct Face: Decodable {
            struct Group: Decodable { var px: [[Double]] }
            var face: Int
            var kept: Bool
            var confidence: Double
            var box_px: [Double]
            var points: [String: Group]
        }
        var archive: String
        var entry: String
        var index: Int
        var frame: Int?
        var width: Int
        var height: Int
        var exif_orientation: Int?
        var faces: [Face]
    }
}
