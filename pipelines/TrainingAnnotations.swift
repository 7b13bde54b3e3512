import Pipeline

extension Pipelines {
    /// Everything a training set needs per face, drawn lightly.
    public static let trainingAnnotations = Pipeline("training-annotations",
                                                     summary: "mesh, iris, contours, 68 points, Vision regions, pose, classification, quality; light drawing",
                                                     rationale: "training sets need the small faces too (WIDER-style crowds), so detection goes down to 20 px like faces; accurate detection (YuNet-s and BlazeFace together) keeps a face one detector found when it clears that detector's bar, and Face Mesh's presence check is asked where it is reliable.") {
        Decode()
        Orient()
        DetectFaces(.accurate, minFaceSize: .pixels(20), canvasArithmetic: .staticInt8)
        ForEachFace {
            Landmarks(iris: true, contours: true, mlkitLandmarks: true, ibug68: true, visionRegions: true)
            Pose()
            Classify()
            Quality()
        }
        Annotate([.boxes, .contours], thickness: 1)
        WriteOutputs()
    }.trackingFacesInVideo()
}
