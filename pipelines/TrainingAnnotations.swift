import Pipeline

extension Pipelines {
    /// Everything a training set needs per face, drawn lightly.
    public static let trainingAnnotations = Pipeline("training-annotations",
                                                     summary: "mesh, iris, contours, 68 points, Vision regions, pose, classification, quality; light drawing") {
        Decode()
        Orient()
        DetectFaces(.accurate, minFaceSize: 0.03)
        FilterConfidence(atLeast: 0.6)
        ForEachFace {
            Landmarks(iris: true, contours: true, mlkitLandmarks: true, ibug68: true, visionRegions: true)
            Pose()
            Classify()
            Quality()
        }
        Annotate([.boxes, .contours], thickness: 1)
        WriteOutputs()
    }
}
