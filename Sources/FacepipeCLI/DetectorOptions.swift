import ArgumentParser
import Pipeline

/// The detector options `run` and `detect` share, declared once: each is
/// a short form of a stage option (`--set STAGE.OPTION=VALUE`), applied to
/// the command's pipeline by ``overrides``, so both commands read and check
/// a value the same way and name it the same way in their errors.
struct DetectorOptions: ParsableArguments {
    @Option(help: ArgumentHelp(
        "Detector: accurate (YuNet-s over the picture, BlazeFace confirming its candidates and reading the whole frame), yunet (YuNet-s alone, docs/YUNET.md), pyramid (BlazeFace short range on an image pyramid + the whole frame), fast (short range, whole frame), sparse (full range sparse, whole frame); = --set detect-faces.mode=MODE (default: the pipeline's, see `facepipe describe`).",
        valueName: "MODE"))
    var mode: String?

    @Option(help: ArgumentHelp(
        "Smallest face to find: pixels (20px) or a fraction of the image width (0.05, ML Kit's minFaceSize); in accurate mode it also sets how fine the pyramid goes; = --set detect-faces.min-face-size=SIZE.",
        valueName: "SIZE"))
    var minFaceSize: String?

    @Option(help: ArgumentHelp("Keep faces with at least this confidence (0…1); = --set filter-confidence.at-least=X.", valueName: "X"))
    var minConfidence: String?

    /// The stage options given, in the order they apply (before any `--set`).
    var overrides: [StageOverride] {
        var overrides: [StageOverride] = []
        if let minFaceSize { overrides.append(.minFaceSize(minFaceSize)) }
        if let minConfidence { overrides.append(.minConfidence(minConfidence)) }
        if let mode { overrides.append(.detectorMode(mode)) }
        return overrides
    }
}
