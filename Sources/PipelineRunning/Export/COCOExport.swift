import Pipeline

/// COCO detection + keypoints (`annotations.json`): `images` (`id` from 1,
/// `file_name`, `width`, `height`, and the run's `archive`/`entry`),
/// `annotations` (one per kept face: `id` from 1, `image_id`,
/// `category_id` 1, `bbox` [x, y, w, h] in pixels, `area` = w·h,
/// `iscrowd` 0, `keypoints` [x, y, v, …] with v = 2 labelled / 0 absent,
/// `num_keypoints`, and the detector's `score`), and one `face` category
/// naming its keypoints and `skeleton`. Written as the images come, in
/// two passes over the export's spool of them (``ExportImageSpool``:
/// `images`, then `annotations`), never held whole.
enum COCOExport {
    static let fileName = "annotations.json"

    /// Writes the file into `file` and commits it. `images` walks the
    /// run's images in manifest order (from the spool); it is called twice.
    static func write(to file: StreamedExportFile, keypoints set: KeypointSet, paths: ImagePaths, pipeline: String,
                      images: ((ExportImage) throws(ExportError) -> Void) throws(ExportError) -> Void) throws(ExportError) {
        var out = JSONText()
        func flush() throws(ExportError) {
            try file.append(out.text)
            out.text = ""
        }
        out.open("{")
        out.key("info")
        out.open("{")
        out.key("description"); out.string("facepipe export coco of a \(pipeline) run")
        out.key("keypoint_set"); out.string(set.rawValue)
        out.close("}")
        out.key("licenses"); out.open("["); out.close("]")
        out.key("images")
        out.open("[")
        var number = 0
        try images { (image) throws(ExportError) in
            number += 1
            out.open("{")
            out.key("id"); out.int(number)
            out.key("file_name"); out.string(try paths.path(of: image))
            out.key("width"); out.int(image.width)
            out.key("height"); out.int(image.height)
            out.key("archive"); out.string(image.archive)
            out.key("entry"); out.string(image.entry)
            out.close("}")
            try flush()
        }
        out.close("]")
        out.key("annotations")
        out.open("[")
        var annotation = 0
        number = 0
        try images { (image) throws(ExportError) in
            number += 1
            for face in image.faces {
                let points = try image.keypoints(set, of: face)
                annotation += 1
                out.open("{")
                out.key("id"); out.int(annotation)
                out.key("image_id"); out.int(number)
                out.key("category_id"); out.int(1)
                out.key("bbox")
                out.open("[")
                for v in [face.box.x, face.box.y, face.box.width, face.box.height] { out.fixed(Float(v), 3) }
                out.close("]")
                out.key("area"); out.fixed(Float(face.box.width * face.box.height), 3)
                out.key("iscrowd"); out.int(0)
                out.key("keypoints")
                out.open("[")
                for point in points {
                    out.fixed(Float(point.x), 3); out.fixed(Float(point.y), 3); out.int(point.labelled ? 2 : 0)
                }
                out.close("]")
                out.key("num_keypoints"); out.int(points.filter(\.labelled).count)
                out.key("score"); out.fixed(Float(face.confidence), 6)
                out.key("face"); out.int(face.face)
                out.close("}")
            }
            try flush()
        }
        out.close("]")
        out.key("categories")
        out.open("[")
        out.open("{")
        out.key("id"); out.int(1)
        out.key("name"); out.string("face")
        out.key("supercategory"); out.string("face")
        out.key("keypoints"); out.array(set.names) { out, name in out.string(name) }
        out.key("skeleton"); out.array(set.skeleton) { out, link in out.open("["); out.int(link.0); out.int(link.1); out.close("]") }
        out.close("}")
        out.close("]")
        out.close("}")
        out.text.append("\n")
        try flush()
        try file.commit()
    }
}
