import Pipeline

extension Pipelines {
    /// `facepipe detect`: the detection and confidence filter of ``faces``
    /// (or the ones given), no landmarks, no images; the runner writes one
    /// JSON line per file.
    public static func detect(_ detection: DetectFaces = facesDetection,
                              minConfidence: Float = facesMinConfidence) -> Pipeline {
        Pipeline("detect", summary: "faces' detection and confidence filter; one JSON line per image") {
            Decode()
            Orient()
            detection
            FilterConfidence(atLeast: minConfidence)
            Annotate([])
            WriteOutputs(images: .none, faceJSON: false)
        }
    }
}
