import ArchiveIO
import Foundation
import Pipeline

/// WebDataset shards (`shard-000000.tar`, …), `shardSize` samples each, in
/// manifest order, written by ``TarWriter`` (fixed headers, so the same run
/// gives the same shard bytes). A sample is two files sharing a key, the
/// sample's 8-digit number (no dots, which WebDataset reads as the start of
/// the extension): `<key>.png`, the clean upright image, and `<key>.json`:
/// the image's `archive`, `entry`, `index`, `width`, `height`, the
/// `keypoint_names` and its kept `faces`, each with `face`, `score`,
/// `bbox` [x, y, w, h] and `keypoints` [x, y, v, …] as in the COCO export.
struct WebDatasetExport {
    static func shardName(_ number: Int) -> String { "shard-" + String(repeating: "0", count: max(0, 6 - String(number).count)) + String(number) + ".tar" }

    static func key(_ number: Int) -> String { String(repeating: "0", count: max(0, 8 - String(number).count)) + String(number) }

    let destination: URL
    let keypoints: KeypointSet
    let shardSize: Int
    private var writer: TarWriter?
    private var samples = 0

    init(destination: URL, keypoints: KeypointSet, shardSize: Int) {
        self.destination = destination
        self.keypoints = keypoints
        self.shardSize = shardSize
    }

    /// Adds the next sample: `image` and its PNG.
    mutating func add(_ image: ExportImage, png: [UInt8]) throws(ExportError) {
        let json = try Self.sampleJSON(image, keypoints: keypoints)
        let key = Self.key(samples)
        do {
            if samples % shardSize == 0 {
                try writer?.finish()
                writer = try TarWriter(path: destination.appendingPathComponent(Self.shardName(samples / shardSize)).path)
            }
            try writer?.add(path: key + ".json", data: json)
            try writer?.add(path: key + ".png", data: png)
        } catch {
            throw .cannotWrite(path: destination.path, reason: error.description)
        }
        samples += 1
    }

    /// Closes the last shard.
    mutating func finish() throws(ExportError) {
        do {
            try writer?.finish()
        } catch {
            throw .cannotWrite(path: destination.path, reason: error.description)
        }
        writer = nil
    }

    static func sampleJSON(_ image: ExportImage, keypoints set: KeypointSet) throws(ExportError) -> [UInt8] {
        var out = JSONText()
        out.open("{")
        out.key("archive"); out.string(image.archive)
        out.key("entry"); out.string(image.entry)
        out.key("index"); out.int(image.index)
        out.key("width"); out.int(image.width)
        out.key("height"); out.int(image.height)
        out.key("keypoint_names"); out.array(set.names) { out, name in out.string(name) }
        out.key("faces")
        out.open("[")
        for face in image.faces {
            let points = try image.keypoints(set, of: face)
            out.open("{")
            out.key("face"); out.int(face.face)
            out.key("score"); out.fixed(Float(face.confidence), 6)
            out.key("bbox")
            out.open("[")
            for v in [face.box.x, face.box.y, face.box.width, face.box.height] { out.fixed(Float(v), 3) }
            out.close("]")
            out.key("keypoints")
            out.open("[")
            for point in points { out.fixed(Float(point.x), 3); out.fixed(Float(point.y), 3); out.int(point.labelled ? 2 : 0) }
            out.close("]")
            out.close("}")
        }
        out.close("]")
        out.close("}")
        out.text.append("\n")
        return Array(out.text.utf8)
    }
}
