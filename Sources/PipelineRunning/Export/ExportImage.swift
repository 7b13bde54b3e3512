import RunFolders

/// One image of a finished run with its kept faces, in upright pixels
/// (origin top-left), as the exporters write them.
package struct ExportImage: Sendable {
    package var archive: String
    package var entry: String
    /// The entry's position in its input (the manifest's `index`; a video's, for its frames).
    package var index: Int
    /// A video frame's index in its video (the manifest's `frame`); nil for a still image.
    package var frame: Int?
    /// Upright size in pixels.
    package var width: Int
    package var height: Int
    /// The EXIF orientation the run read (1: the file's pixels are upright); nil when the JSON has none.
    package var exifOrientation: Int?
    /// The per-image JSON's path relative to the run folder (`faces/<archive>/<entry>.json`).
    package var facesJSON: String
    /// The kept faces, in detection order.
    package var faces: [ExportFace]

    /// `<archive>/<entry path>`, the name the run gave this entry's outputs
    /// (`SafeOutputPath`: never leaves a folder, unique in the run); the
    /// export names its files after it.
    package var outputName: String {
        String(facesJSON.dropFirst(OutputLayout.facesFolder.count + 1).dropLast(".json".count))
    }

    /// Which picture of its input this is: an entry, or a frame of the video entry `index`.
    struct Key: Hashable {
        var index: Int
        var frame: Int?
    }

    var key: Key { Key(index: index, frame: frame) }

    init(archive: String, entry: String, index: Int, frame: Int?, width: Int, height: Int, exifOrientation: Int?,
         facesJSON: String, faces: [ExportFace]) {
        self.archive = archive
        self.entry = entry
        self.index = index
        self.frame = frame
        self.width = width
        self.height = height
        self.exifOrientation = exifOrientation
        self.facesJSON = facesJSON
        self.faces = faces
    }

    init(_ json: FinishedRun.ImageJSON, facesJSON: String, pointGroups: Set<String>) {
        archive = json.archive
        entry = json.entry
        index = json.index
        frame = json.frame
        width = json.width
        height = json.height
        exifOrientation = json.exif_orientation
        self.facesJSON = facesJSON
        faces = json.faces.filter(\.kept).compactMap { ExportFace($0, width: json.width, height: json.height, pointGroups: pointGroups) }
    }
}

/// A kept face: its box clipped to the image and its point groups.
package struct ExportFace: Sendable {
    package var face: Int
    package var confidence: Double
    /// `x y w h` in pixels, inside the image.
    package var box: (x: Double, y: Double, width: Double, height: Double)
    /// The point groups the export asked for, by name (`mesh`, `left_iris`, `mlkit_landmarks`, `ibug68`, …), pixels.
    package var groups: [String: [(x: Double, y: Double)]]

    init(face: Int, confidence: Double, box: (x: Double, y: Double, width: Double, height: Double),
         groups: [String: [(x: Double, y: Double)]]) {
        self.face = face
        self.confidence = confidence
        self.box = box
        self.groups = groups
    }

    /// Nil when the box lies outside the image.
    init?(_ face: FinishedRun.ImageJSON.Face, width: Int, height: Int, pointGroups: Set<String>) {
        guard face.box_px.count == 4 else { return nil }
        let x0 = max(0, face.box_px[0]), y0 = max(0, face.box_px[1])
        let x1 = min(Double(width), face.box_px[0] + face.box_px[2]), y1 = min(Double(height), face.box_px[1] + face.box_px[3])
        guard x1 > x0, y1 > y0 else { return nil }
        self.face = face.face
        confidence = face.confidence
        box = (x0, y0, x1 - x0, y1 - y0)
        groups = face.points.filter { pointGroups.contains($0.key) }
            .mapValues { group in group.px.compactMap { $0.count == 2 ? (x: $0[0], y: $0[1]) : nil } }
    }
}
