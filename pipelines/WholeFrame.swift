import Pipeline

extension Pipelines {
    /// What a MediaPipe face script does, on facepipe: the full-range
    /// detector (MediaPipe's `model_selection=1`, the sparse model) once on
    /// the whole frame, confidence ≥ 0.5, mesh + iris + contours on every
    /// kept face, annotated PNGs. For replacing such a script with the same
    /// detections, and for comparing the two like for like.
    public static let wholeFrame = Pipeline("whole-frame",
                                            summary: "MediaPipe's detection (full-range sparse, whole frame, confidence ≥ 0.5) + mesh, iris, contours on kept faces",
                                            rationale: "reproduces what a MediaPipe script finds, like for like: the whole frame once at 192 px and no size floor (MediaPipe has none), so faces smaller than about a tenth of the frame are not found.") {
        Decode()
        Orient()
        DetectFaces(.sparse, minFaceSize: .any)
        FilterConfidence(atLeast: 0.5)
        ForEachFace {
            Landmarks(iris: true, contours: true)
            Pose()
        }
        Annotate()
        WriteOutputs()
    }
}
