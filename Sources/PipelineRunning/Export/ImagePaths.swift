/// What an annotation file says an image's path is. Paths never start
/// with `/` and have no `.` component.
///
/// - `.written(root:)`: the clean upright PNG the export wrote at
///   `DEST/images/<archive>/<entry>.png`, relative to `root`, the folder
///   the format's loaders start from (`ExportFormat/imagePathRoot`): COCO's
///   `file_name` is `images/sample.tar/photos/a.jpg.png`, relative to
///   `annotations.json`; WIDER's and RetinaFace's paths are
///   `sample.tar/photos/a.jpg.png`, relative to `DEST/images/`.
/// - `.originals`: the files the run read, each relative to DEST
///   (`OriginalFiles`), found again for each image as it comes.
package enum ImagePaths: Sendable {
    case written(root: String)
    case originals(OriginalFiles)

    /// The path of `image`'s picture.
    package func path(of image: ExportImage) throws(ExportError) -> String {
        switch self {
        case .written(let root):
            return String(Self.writtenFile(of: image).dropFirst(root.count))
        case .originals(let originals):
            return try originals.relativePath(of: image)
        }
    }

    /// Where the export writes `image`'s clean upright PNG, relative to DEST.
    static func writtenFile(of image: ExportImage) -> String {
        "images/" + image.outputName + ".png"
    }
}
