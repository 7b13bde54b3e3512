import Pipeline

extension Pipelines {
    /// Everything a training set needs per face, drawn lightly.
    public static let trainingAnnotations = Pipeline("training-annotations",
                                                     summary: "mesh, iris, contours, 68 points, Vision regions, pose, classification, quality; light drawing",
                                                     rationale: "training sets need the small faces too (WIDER-style crowds), so detection goes down to 20 px like faces; confidence 0.6 keeps more borderline faces for review, and Face Mesh's presence check rejects detections that are not faces.") {
        Decode()
        Orient()
        DetectFaces(.accurate, minFaceSize: .pixels(20), canvasArithmetic: .int8)
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
