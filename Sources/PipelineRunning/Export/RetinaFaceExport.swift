/// The `label.txt` of WIDER FACE with five landmarks that RetinaFace
/// trainers read (the layout of `retinaface_gt_v1.1`): per image a line
/// `# <path>`, then one line per kept face: `x y w h` (whole pixels, edges
/// rounded), five `lx ly flag` triples (pixels, 3 decimals; flag 0.0 for a
/// labelled point, and `-1.0 -1.0 -1.0` for a point outside the image, which
/// the trainers read as "no landmark") in the 5-point order (subject's right
/// eye, left eye, nose tip, right and left mouth corner), and last the
/// detector's confidence. Trainers take the image as `images/<path>` beside
/// `label.txt`. Paths are ``LinePath``-encoded (`%` and control characters
/// percent-encoded), so one cannot break a line.
enum RetinaFaceExport {
    static let fileName = "label.txt"

    /// The lines of one image.
    static func lines(_ image: ExportImage, paths: ImagePaths) throws(ExportError) -> String {
        var text = "# " + LinePath.encoded(try paths.path(of: image)) + "\n"
        for face in image.faces {
            let x0 = Int(face.box.x.rounded()), y0 = Int(face.box.y.rounded())
            let x1 = Int((face.box.x + face.box.width).rounded()), y1 = Int((face.box.y + face.box.height).rounded())
            var fields = ["\(x0)", "\(y0)", "\(x1 - x0)", "\(y1 - y0)"]
            for point in try image.keypoints(.five, of: face) {
                fields += point.labelled ? [ExportNumber.text(point.x, 3), ExportNumber.text(point.y, 3), "0.0"] : ["-1.0", "-1.0", "-1.0"]
            }
            fields.append(ExportNumber.text(face.confidence, 4))
            text += fields.joined(separator: " ") + "\n"
        }
        return text
    }
}
