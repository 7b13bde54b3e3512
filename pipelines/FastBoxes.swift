import Pipeline

extension Pipelines {
    /// Boxes only, with the short-range detector: the quickest pass.
    public static let fastBoxes = Pipeline("fast-boxes",
                                           summary: "short-range detector, boxes and keypoints only") {
        Decode()
        Orient()
        DetectFaces(.fast, minFaceSize: 0.1)
        FilterConfidence(atLeast: 0.5)
        Annotate([.boxes, .keypoints])
        WriteOutputs(faceJSON: false)
    }
}
