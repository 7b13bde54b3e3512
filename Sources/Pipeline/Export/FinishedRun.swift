import Foundation

/// A finished run as the export reads it: `run.json` (pipeline and inputs),
/// `manifest.csv` (the images, in order, each with its per-image JSON) and
/// the per-image JSON (the kept faces with every point). Nothing is
/// detected again. Every file is read through ``RunFolder``: a name the
/// manifest gives cannot lead outside the folder or through a link.
package struct FinishedRun: Sendable {
    /// An input as run.json records it: the manifest's name, the path as
    /// given to `facepipe run`, the SHA-256 of its bytes and their count.
    package typealias Input = RunRecord.InputInfo

    package let directory: URL
    package let pipeline: String
    package let inputs: [Input]
    /// Every image the run processed (not the entries that failed), in manifest order.
    package let images: [ExportImage]

    /// - Parameters:
    ///   - directory: the run's output folder.
    ///   - pointGroups: the point groups to keep of each face (the
    ///     keypoint set's; the rest of the JSON's points is not held in memory).
    package init(directory: URL, pointGroups: Set<String> = []) throws(ExportError) {
        self.directory = directory
        let folder = RunFolder(directory)
        let bytes: [UInt8]
        do { bytes = try folder.read(RunRecord.fileName) } catch {
            throw .unreadableRun(file: Self.shown(RunRecord.fileName, in: directory), reason: error.reason)
        }
        let record: RunRecord
        do throws(RunRecord.Failure) { record = try RunRecord(decoding: bytes) } catch {
            throw .unreadableRun(file: Self.shown(RunRecord.fileName, in: directory), reason: error.description)
        }
        pipeline = record.pipeline.name
        inputs = record.inputs
        let manifestText: String
        do {
            manifestText = String(decoding: try folder.read("manifest.csv"), as: UTF8.self)
        } catch {
            throw .unreadableRun(file: Self.shown("manifest.csv", in: directory), reason: error.reason)
        }
        let table: ManifestTable
        do { table = try ManifestTable(csv: manifestText) } catch {
            throw .unreadableRun(file: Self.shown("manifest.csv", in: directory), reason: error.description)
        }
        let archive = ManifestTable.column("archive"), index = ManifestTable.column("index"), frame = ManifestTable.column("frame")
        let status = ManifestTable.column("status")
        let facesJSON = ManifestTable.column("faces_json"), face = ManifestTable.column("face")

        // Rows of one image (a still, or one frame of a video) are consecutive: group them by (archive, index, frame).
        var images: [ExportImage] = []
        var start = 0
        while start < table.rows.count {
            let first = table.rows[start]
            var end = start + 1
            while end < table.rows.count, table.rows[end][archive] == first[archive], table.rows[end][index] == first[index],
                  table.rows[end][frame] == first[frame] { end += 1 }
            defer { start = end }
            let rows = table.rows[start..<end]
            if first[status] == "error" { continue }
            let name = first[facesJSON]
            guard !name.isEmpty else {
                throw .unreadableRun(file: Self.shown("manifest.csv", in: directory), reason: "\(first[archive]) \(first[index]) has no per-image JSON (the \(pipeline) pipeline writes none); export needs a run that writes faces/")
            }
            guard RunFolder.components(of: name) != nil, name.hasPrefix("faces/"), name.hasSuffix(".json") else {
                throw .unreadableRun(file: Self.shown("manifest.csv", in: directory), reason: "\(first[archive]) \(first[index]): faces_json \(JSONText.quoted(name)) is not a faces/….json path inside the run folder")
            }
            guard folder.holds(name) || !(folder.holds("outputs") || folder.holds("outputs.tar")) else {
                throw .unreadableRun(file: Self.shown(name, in: directory), reason: "the run wrote its JSON into output tars (outputs/, --output-tar); export reads faces/, so rerun without --output-tar")
            }
            let json = try Self.decode(ImageJSON.self, file: name, in: folder)
            let image = ExportImage(json, facesJSON: name, pointGroups: pointGroups)
            guard image.frame == Int(first[frame]) else {
                throw .unreadableRun(file: Self.shown(name, in: directory), reason: "frame \(image.frame.map(String.init) ?? "none"), the manifest \(first[frame].isEmpty ? "none" : first[frame])")
            }
            let keptRows = rows.filter { $0[status] == "ok" && !$0[face].isEmpty }.count
            guard keptRows == image.faces.count else {
                throw .unreadableRun(file: Self.shown(name, in: directory), reason: "\(image.faces.count) kept faces, the manifest \(keptRows)")
            }
            images.append(image)
        }
        self.images = images
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
