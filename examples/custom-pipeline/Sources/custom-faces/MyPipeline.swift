// facepipe's detection, faces the picture cuts off rejected, landmarks and
// pose on the others, annotated PNGs. Run it with
// `swift run custom-faces run my-pipeline photos.tar --out out`.
// (README.md shows the lines between the snippet markers.)
// snippet: my-pipeline
import Pipeline

let myPipeline = Pipeline("my-pipeline", summary: "every face from 20 px; faces cut off by the border rejected; landmarks and pose on the rest") {
    Decode()
    Orient()
    DetectFaces(.accurate, minFaceSize: .pixels(20))
    FilterConfidence(atLeast: 0.5)
    RejectBorderFaces(margin: 0)
    ForEachFace {
        Landmarks(iris: true, contours: true)
        Pose()
    }
    Annotate()
    WriteOutputs()
}
// end snippet
