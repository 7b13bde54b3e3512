// A pipeline in one file (docs/PIPELINES.md, "A pipeline in one file"):
// `facepipe run --pipeline examples/pipeline-file/WideFaces.swift photos.tar --out out`.
// scripts/check-install.sh compiles and runs it from an installed facepipe.
// snippet: wide-faces
import Pipeline

struct RejectNarrowFaces: Stage {
    var minWidth: Float = 60
    static var optionTable: [StageOption<Self>] { [StageOption("min-width", \.minWidth)] }   // --set reject-narrow-faces.min-width=80
    var definition: StageDefinition { StageDefinition("reject-narrow-faces", optionsOf: self) }
    var caching: StageCaching { .records }
    func process(_ frame: Frame<Phase.Detected>, context: StageContext) throws -> Frame<Phase.Detected> {
        var frame = frame
        frame.reject(reason: "narrower than \(minWidth) px") { $0.box.width < minWidth }
        return frame
    }
}

let pipeline = Pipeline("wide-faces", summary: "faces from 60 px wide; manifest and JSON") {
    Decode()
    Orient()
    DetectFaces(.accurate, minFaceSize: .pixels(20))
    FilterConfidence(atLeast: 0.7)
    RejectNarrowFaces()
    Annotate([])                      // no drawing:
    WriteOutputs(images: .none)       // the manifest and JSON only
}
// end snippet
