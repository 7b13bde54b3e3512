import ImageCore
import Pipeline
import RunFolders

/// An entry's outputs after the ordered step, before any of their bytes
/// are made: the record as the ordered passes left it, where the picture
/// goes, the crops' folder and the JSON's path. ``encoded()`` is the one
/// place that makes them: a frame's labels drawn and its picture encoded,
/// the crops named, the JSON encoded once, each file's SHA-256 taken, the
/// manifest rows built.
struct EntryOutputs: Sendable {
    /// The record after the ordered passes.
    let record: EntryRecord
    /// The record before them, for the completion record (nil: no passes).
    let recordBeforePasses: EntryRecord?
    let picture: Picture
    /// `crops/<input>/<entry path>`: where the faces' aligned crops go.
    let cropFolder: String
    /// `faces/<input>/<entry path>.json`; nil: the pipeline writes no JSON.
    let jsonPath: String?
    let contentHash: String
    let cacheHits: Int

    /// Where the picture goes, and what it is before the encode step.
    enum Picture: Sendable {
        case none
        case file(path: String, Source)
        /// `--redacted-shards`: into the input's shard (`path`), in place of the entry.
        case shard(path: String, Source)
        /// A video frame, into its video's output.
        case videoFrame(VideoFrameTarget, DeferredLabels)
    }

    /// A picture encoded on the worker, or a video frame's whose labels wait for the ordered passes.
    enum Source: Sendable {
        case encoded([UInt8])
        case labelsToDraw(DeferredLabels)

        func bytes(for record: EntryRecord) throws -> [UInt8] {
            switch self {
            case .encoded(let bytes): bytes
            case .labelsToDraw(let deferred): try deferred.render(record)
            }
        }

        var heldBytes: Int {
            switch self {
            case .encoded(let bytes): bytes.count
            case .labelsToDraw(let deferred): deferred.image.pixels.count
            }
        }
    }

    var heldBytes: Int {
        let picture = switch picture {
        case .none: 0
        case .file(_, let source), .shard(_, let source): source.heldBytes
        case .videoFrame(_, let deferred): deferred.image.pixels.count
        }
        return picture + record.faces.reduce(0) { $0 + $1.crops.reduce(0) { $0 + $1.png.count } }
    }

    func encoded() throws -> EncodedFiles {
        var record = record
        let (encodedPicture, imagePath) = try pictureBytes(record)
        // The crops' files are named here; the JSON gives their paths (their PNG bytes are dropped from the record).
        var crops: [OutputBytes] = []
        for i in record.faces.indices {
            for j in record.faces[i].crops.indices {
                let crop = record.faces[i].crops[j]
                let path = "\(cropFolder)/\(crop.fileName(face: record.faces[i].face))"
                crops.append(OutputBytes(path: path, bytes: crop.png))
                record.faces[i].crops[j].path = path
                record.faces[i].crops[j].png = []
            }
        }
        let json = jsonPath.map { OutputBytes(path: $0, bytes: FaceJSONEncoder.encode(record)) }
        let counts = CompletionRecord.Counts(
            faces: record.faces.count, keptFaces: record.faces.filter(\.isKept).count,
            megapixels: Double(record.width) * Double(record.height) / 1e6)
        return EncodedFiles(picture: encodedPicture, crops: crops, json: json,
                            rows: Manifest.rows(for: record, output: imagePath, facesJSON: jsonPath ?? ""),
                            counts: counts, contentHash: contentHash, cacheHits: cacheHits,
                            recordBeforePasses: recordBeforePasses)
    }

    /// The picture's bytes (a frame's labels drawn from `record`) and the manifest's `output`.
    private func pictureBytes(_ record: EntryRecord) throws -> (EncodedFiles.Picture, String) {
        switch picture {
        case .none:
            return (.none, "")
        case .file(let path, let source):
            return (.file(OutputBytes(path: path, bytes: try source.bytes(for: record))), path)
        case .shard(let path, let source):
            return (.shard(path: path, bytes: try source.bytes(for: record)), path)
        case .videoFrame(let target, let deferred):
            let tracked = record.faces.compactMap { face in face.trackingID.map { (trackID: $0, box: face.box) } }
            return (.videoFrame(target, deferred.drawn(record), trackedFaces: tracked), target.path)
        }
    }
}
