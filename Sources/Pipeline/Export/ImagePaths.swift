import Foundation

/// What an annotation file says an image's path is.
///
/// - `.written`: the clean upright PNG the export wrote, relative to
///   `DEST/images/` (`sample.tar/photos/a.jpg.png`), as COCO's `file_name`
///   and WIDER's and RetinaFace's paths are relative to an image folder.
/// - `.originals`: the file the run read, from the input's path as
///   `facepipe run` was given it (relative paths stay relative to the folder
///   the run was started in): a folder input's file is `<folder>/<entry>`; a
///   single image file is its path; an archive's entry is
///   `<archive path>/<entry>`, the entry inside that archive; an entry of a
///   stream (standard input, a FIFO) is `stdin/<entry>`.
public enum ImagePaths: Sendable {
    case written
    case originals(FinishedRun)

    /// The path of `image`'s picture.
    public func path(of image: ExportImage) -> String {
        switch self {
        case .written:
            return image.outputName + ".png"
        case .originals(let run):
            guard let input = run.input(named: image.archive), let path = input.path, path != "-" else {
                return image.archive + "/" + image.entry
            }
            // A stream (a FIFO, /dev/stdin) is never opened again: `stdin/<entry>`.
            var status = stat()
            if stat(path, &status) == 0, [S_IFIFO, S_IFCHR, S_IFSOCK].contains(status.st_mode & S_IFMT) {
                return "stdin/" + image.entry
            }
            if status.st_mode & S_IFMT == S_IFREG, UprightImages.isImageFile(path) {
                return path
            }
            return (path.hasSuffix("/") ? path : path + "/") + image.entry
        }
    }
}
