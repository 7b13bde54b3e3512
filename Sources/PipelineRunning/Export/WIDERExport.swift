/// WIDER FACE's ground truth (`wider_face_bbx_gt.txt`): per image, its path,
/// the number of faces, then one line per face `x y w h blur expression
/// illumination invalid occlusion pose` with the box in whole pixels (edges
/// rounded to the nearest pixel) and the six attributes 0 (facepipe does not
/// judge blur, expression, illumination, occlusion or pose: 0 is WIDER's
/// "typical"/"none"). An image without a face has a count of 0 and one line
/// of ten zeros, as WIDER's own file has. Paths are ``LinePath``-encoded
/// (`%` and control characters percent-encoded), so one cannot break a line.
enum WIDERExport {
    static let fileName = "wider_face_bbx_gt.txt"

    /// The lines of one image.
    static func lines(_ image: ExportImage, paths: ImagePaths) throws(ExportError) -> String {
        var text = LinePath.encoded(try paths.path(of: image)) + "\n"
        text += "\(image.faces.count)\n"
        guard !image.faces.isEmpty else { return text + "0 0 0 0 0 0 0 0 0 0\n" }
        for face in image.faces {
            let x0 = Int(face.box.x.rounded()), y0 = Int(face.box.y.rounded())
            let x1 = Int((face.box.x + face.box.width).rounded()), y1 = Int((face.box.y + face.box.height).rounded())
            text += "\(x0) \(y0) \(x1 - x0) \(y1 - y0) 0 0 0 0 0 0\n"
        }
        return text
    }
}
