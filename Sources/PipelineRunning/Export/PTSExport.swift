/// iBUG 300-W `.pts` files, one per kept face (`pts/<name>_<face>.pts`, the
/// run's face number): `version: 1`, `n_points:  68`, `{`, 68 lines `x y`,
/// `}`. Coordinates follow 300-W's 1-based convention, where the first
/// pixel's centre is (1, 1): the run's pixels (centres at +0.5) plus 0.5.
/// Points outside the image are written where they are (`.pts` has no
/// visibility).
enum PTSExport {
    static func path(_ image: ExportImage, _ face: ExportFace) -> String { "pts/\(image.outputName)_\(face.face).pts" }

    static func file(_ image: ExportImage, _ face: ExportFace) throws(ExportError) -> String {
        var text = "version: 1\nn_points:  68\n{\n"
        for point in try KeypointSet.ibug68.points(of: face, in: image) {
            text += ExportNumber.text(point.x + 0.5, 3) + " " + ExportNumber.text(point.y + 0.5, 3) + "\n"
        }
        return text + "}\n"
    }
}
