import Pipeline

extension Pipelines {
    /// Recognition datasets: aligned crops of the faces worth recognising.
    public static let faceCrops = Pipeline("face-crops",
                                           summary: "faces ≥ 40 px wide, confidence ≥ 0.7, kept by Face Mesh: ArcFace 112×112 and FFHQ 256×256 aligned crops (PNG), boxes drawn",
                                           rationale: "detection searches down to 20 px like faces, but a face narrower than 40 px has too little detail for a 112-px recognition crop; iris centres give the eye points of the five-point alignment.") {
        Decode()
        Orient()
        DetectFaces(.accurate, minFaceSize: .pixels(20), canvasArithmetic: .staticInt8)
        FilterConfidence(atLeast: 0.7)
        FilterWidth(atLeast: 40)
        ForEachFace {
            Landmarks(iris: true)
        }
        Crops(arcfaceSize: 112, ffhqSize: 256)
        Annotate([.boxes, .labels])
        WriteOutputs()
    }
}
