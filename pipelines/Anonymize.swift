import Pipeline

extension Pipelines {
    /// Detection floor of `anonymize`: every candidate at or above it is redacted.
    public static let anonymizeMinScore: Float = 0.5

    /// Privacy: every face blurred out of the upright image, written as a
    /// metadata-free JPEG under the entry's name.
    public static let anonymize = Pipeline("anonymize",
                                           summary: "every face from 16 px blurred (box + 25 % margin, feathered), upright JPEG q90 without metadata, regions in manifest + JSON",
                                           rationale: "recall first: YuNet-s and BlazeFace together down to 16-px faces, every face either detector scores at its lowest floor (0.5), and no filter or Face Mesh presence check that could leave a face unredacted; the grown box covers hair and chin; JPEG q90 keeps the image usable and drops EXIF, GPS and maker notes.") {
        Decode()
        Orient()
        DetectFaces(.accurate, minFaceSize: .pixels(16), minScore: anonymizeMinScore, canvasArithmetic: .staticInt8, unconfirmed: .all)
        Redact(.blur)
        WriteOutputs(images: .jpeg(quality: 90))
    }.trackingFacesInVideo()
}
