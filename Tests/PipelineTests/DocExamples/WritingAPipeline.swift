// docs/PIPELINES.md, "Writing a pipeline or a stage": the lines between the
// snippet markers are the documentation's example, compiled here (DocSnippetTests
// checks that the page shows exactly them).
import Pipelines

// snippet: writing-a-pipeline
import Pipeline

struct DropSmallFaces: Stage {
    var minWidth: Float
    static var optionTable: [StageOption<Self>] { [StageOption("min-width", \.minWidth)] }   // --set drop-small-faces.min-width=120
    var definition: StageDefinition { StageDefinition("drop-small-faces", optionsOf: self) }
    var caching: StageCaching { .records }          // only changes the record: cacheable
    func process(_ frame: Frame<Phase.Detected>, context: StageContext) throws -> Frame<Phase.Detected> {
        var frame = frame
        frame.reject(reason: "narrower than \(minWidth) px") { $0.box.width < minWidth }
        return frame
    }
}

extension Pipelines {
    static let mine = Pipeline("mine", summary: "large faces with landmarks") {
        Decode()
        Orient()
        DetectFaces(.accurate, minFaceSize: .pixels(20))
        DropSmallFaces(minWidth: 80)
        ForEachFace {                               // only the kept faces
            Landmarks(iris: true, contours: true, ibug68: true)
            Pose()
            Classify()
            Quality()
        }
        Filter("frontal", reason: "not frontal") { face, _ in (face.pose?.yaw ?? 0).magnitude < 20 }
        Track()
        Annotate([.boxes, .contours, .labels])
        WriteOutputs()                              // every pipeline ends with its outputs
    }
}
// end snippet
