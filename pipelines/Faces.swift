import Pipeline

extension Pipelines {
    /// The detection of the default pipeline, which `facepipe detect` shares.
    public static let facesDetection = DetectFaces(.accurate, minFaceSize: 0.05)
    /// The confidence a face needs to be kept in the default pipeline.
    public static let facesMinConfidence: Float = 0.7

    /// The default: accurate detection, a confidence filter, landmarks and
    /// contours on the kept faces, annotation.
    public static let faces = Pipeline("faces",
                                       summary: "accurate detection, confidence ≥ 0.7, landmarks + contours + pose on kept faces, annotated PNGs") {
        Decode()
        Orient()
        facesDetection
        FilterConfidence(atLeast: facesMinConfidence)
        ForEachFace {
            Landmarks(iris: true, contours: true)
            Pose()
        }
        Annotate()
        WriteOutputs()
    }
}
