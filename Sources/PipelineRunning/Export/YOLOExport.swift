/// Ultralytics YOLO pose labels: beside each `images/<name>.png`, a
/// `labels/<name>.txt` (Ultralytics finds a label by replacing `/images/`
/// with `/labels/` and the extension with `.txt`) with one line per kept face,
/// `0 cx cy w h` then five `px py v`, every coordinate divided by the image's
/// width or height (0…1, 6 decimals); v = 2 labelled, a point outside the
/// image is `0 0 0`. `dataset.yaml` (no `path:`, so Ultralytics uses the
/// yaml's folder) names the images folder and sets `kpt_shape: [5, 3]`,
/// `flip_idx` (the two eyes and the two mouth corners swap in a mirrored
/// image) and the one class, `face`. The run's pipeline name appears only
/// in the first comment, as a ``YAMLText`` double-quoted scalar (escaped,
/// so it cannot end the comment's line).
enum YOLOExport {
    static let datasetFile = "dataset.yaml"

    static func labelPath(_ image: ExportImage) -> String { "labels/" + image.outputName + ".txt" }

    static func labels(_ image: ExportImage) throws(ExportError) -> String {
        let w = Double(image.width), h = Double(image.height)
        var text = ""
        for face in image.faces {
            var fields = ["0",
                          ExportNumber.text((face.box.x + face.box.width / 2) / w, 6),
                          ExportNumber.text((face.box.y + face.box.height / 2) / h, 6),
                          ExportNumber.text(face.box.width / w, 6),
                          ExportNumber.text(face.box.height / h, 6)]
            for point in try image.keypoints(.five, of: face) {
                fields += [ExportNumber.text(point.x / w, 6), ExportNumber.text(point.y / h, 6), point.labelled ? "2" : "0"]
            }
            text += fields.joined(separator: " ") + "\n"
        }
        return text
    }

    static func dataset(pipeline: String) -> String {
        let flip = [1, 0, 2, 4, 3].map(String.init).joined(separator: ", ")
        return """
        # facepipe export yolo of a \(YAMLText.quoted(pipeline)) run: Ultralytics pose, one class, 5 keypoints
        # (\(KeypointSet.five.names.joined(separator: ", ")))
        train: images
        val: images
        kpt_shape: [5, 3]
        flip_idx: [\(flip)]
        names:
          0: face

        """
    }
}
