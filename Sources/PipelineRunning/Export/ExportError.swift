/// Why an export cannot be written. Each message names the file or the
/// missing points, so the command can print it as is (exit 2).
package enum ExportError: Error, Equatable, CustomStringConvertible {
    /// RUN_DIR's manifest.csv, run.json or a per-image JSON is missing or
    /// unreadable: its path (RUN_DIR as given, then the file) and why.
    case unreadableRun(file: String, reason: String)
    /// The run did not compute the points the chosen keypoint set needs.
    case missingPoints(keypoints: String, entry: String, needs: String)
    /// An input the run read cannot be read again, or its bytes changed since.
    case inputChanged(input: String, reason: String)
    /// DEST cannot be written.
    case cannotWrite(path: String, reason: String)
    /// DEST is RUN_DIR or an existing folder inside it (its files would be overwritten).
    case destinationInsideRun(destination: String, run: String)
    /// `--reference-originals` with a format whose loaders need the images beside the labels.
    case originalsNeedImages(format: String)
    /// `--reference-originals` cannot point at this image (`<archive>/<entry>`): why.
    case originalNotReferenceable(image: String, reason: String)

    package var description: String {
        switch self {
        case .unreadableRun(let file, let reason):
            "cannot read the run's \(file): \(reason)"
        case .missingPoints(let keypoints, let entry, let needs):
            "the run has no \(needs) for \(entry), which the \(keypoints) keypoints need (run a pipeline that computes them, e.g. training-annotations, or choose another --keypoints)"
        case .inputChanged(let input, let reason):
            "cannot re-read the run's input \(input): \(reason)"
        case .cannotWrite(let path, let reason):
            "cannot write \(path): \(reason)"
        case .destinationInsideRun(let destination, let run):
            "--out \(destination) is the run folder \(run) or an existing folder inside it, whose files the export would overwrite; choose a folder outside it (or a new one)"
        case .originalsNeedImages(let format):
            "--reference-originals cannot be used with \(format): its loaders read the images from DEST (leave the option out and the export writes them)"
        case .originalNotReferenceable(let image, let reason):
            "--reference-originals cannot point at \(image): \(reason); leave the option out and the export writes it upright into DEST/images/"
        }
    }
}
