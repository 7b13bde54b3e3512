import Pipeline

extension Pipelines {
    /// The default: accurate detection, a confidence filter, landmarks and
    /// contours on the kept faces, annotation.
    public static let faces = Pipeline("faces",
                                       summary: "accurate detection, confidence ≥ 0.7, landmarks + contours + pose on kept faces, annotated PNGs") {
        Decode()
        Orient()
        DetectFaces(.accurate, minFaceSize: 0.05)
        FilterConfidence(atLeast: 0.7)
        ForEachFace {
            Landmarks(iris: true, contours: true)
            Pose()
        }
        Annotate()
        WriteOutputs()
    }
}
