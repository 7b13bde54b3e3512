import Pipeline

extension Pipelines {
    /// What a MediaPipe face script does, on facepipe: the full-range
    /// detector (MediaPipe's `model_selection=1`, the sparse model) once on
    /// the whole frame, confidence ≥ 0.5, mesh + iris + contours on every
    /// kept face, annotated PNGs. For replacing such a script with the same
    /// detections, and for comparing the two like for like.
    public static let wholeFrame = Pipeline("whole-frame",
                                            summary: "MediaPipe's detection (full-range sparse, whole frame, confidence ≥ 0.5) + mesh, iris, contours on kept faces") {
        Decode()
        Orient()
        DetectFaces(.sparse, minFaceSize: 0)
        FilterConfidence(atLeast: 0.5)
        ForEachFace {
            Landmarks(iris: true, contours: true)
            Pose()
        }
        Annotate()
        WriteOutputs()
    }
}
