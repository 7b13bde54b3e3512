import Pipeline

extension Pipelines {
    /// Boxes only, with the short-range detector: the quickest pass.
    public static let fastBoxes = Pipeline("fast-boxes",
                                           summary: "short-range detector, boxes and keypoints only",
                                           rationale: "the quickest pass, for faces near the camera: ML Kit's default floor of a tenth of the image width, one short-range pass over the whole frame.") {
        Decode()
        Orient()
        DetectFaces(.fast, minFaceSize: .fraction(0.1))
        FilterConfidence(atLeast: 0.5)
        Annotate([.boxes, .keypoints])
        WriteOutputs(faceJSON: false)
    }
}
