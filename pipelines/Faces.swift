import Pipeline

extension Pipelines {
    /// The detection of the default pipeline, which `facepipe detect` shares.
    public static let facesDetection = DetectFaces(.accurate, minFaceSize: .pixels(20), canvasArithmetic: .int8)
    /// The confidence a face needs to be kept in the default pipeline.
    public static let facesMinConfidence: Float = 0.7

    /// The default: every face from about 20 px wide, whatever the photo's
    /// size (accurate detection on an image pyramid), a confidence filter,
    /// landmarks and contours on the kept faces, annotation.
    public static let faces = Pipeline("faces",
                                       summary: "every face from 20 px wide, confidence ≥ 0.7, landmarks + contours + pose on kept faces, annotated PNGs",
                                       rationale: "20 px is the smallest face the detector finds reliably at 1:1; a pixel floor finds it in a 4000-px photo as in a 640-px one (a fraction of the width would stop at 200 px there). Faces Face Mesh says are not faces are rejected with the reason. The detector's first layer runs in int8 on the canvas bytes: the same faces on `make eval`, about 12 % less time, the same bytes on every CPU.") {
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
