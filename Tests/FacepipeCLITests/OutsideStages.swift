import ImageCore
import Pipeline

// Stages written as a user writes them, in a module of their own, with
// only the public API: each has an option `--set` changes.

/// Every picture holds one face: its whole area, `inset` pixels in from each side.
struct WholePictureFace: Stage {
    var inset: Float = 0

    static var optionTable: [StageOption<Self>] { [StageOption("inset", \.inset)] }
    var definition: StageDefinition { StageDefinition("whole-picture-face", optionsOf: self) }

    func validate() throws(PipelineError) {
        guard inset >= 0 else { throw .invalidOption(stage: "whole-picture-face", option: "inset", reason: "must be ≥ 0, got \(inset)") }
    }

    func process(_ frame: Frame<Phase.Upright>, context: StageContext) throws -> Frame<Phase.Detected> {
        var detected = frame.advanced(to: Phase.Detected.self)
        let width = Float(frame.image.width), height = Float(frame.image.height)
        detected.record.detectionRan = true
        detected.record.faces = [FaceRecord(face: 0, confidence: 1,
                                            box: Rect(x: inset, y: inset, width: width - 2 * inset, height: height - 2 * inset))]
        return detected
    }
}

/// Rejects kept faces whose box comes within `margin` pixels of the picture's edge.
struct RejectBorderFaces: Stage {
    var margin: Float = 0

    static var optionTable: [StageOption<Self>] { [StageOption("margin", \.margin)] }
    var definition: StageDefinition { StageDefinition("reject-border-faces", optionsOf: self) }
    var caching: StageCaching { .records }

    func process(_ frame: Frame<Phase.Detected>, context: StageContext) throws -> Frame<Phase.Detected> {
        var frame = frame
        let width = Float(frame.record.width), height = Float(frame.record.height)
        frame.reject(reason: "within \(margin) px of the border") { face in
            face.box.x <= margin || face.box.y <= margin
                || face.box.x + face.box.width >= width - margin || face.box.y + face.box.height >= height - margin
        }
        return frame
    }
}

/// A pipeline made of built-in stages and the two above; it needs no model.
let borderTest = Pipeline("border-test", summary: "one face per picture, rejected near the border") {
    Decode()
    Orient()
    WholePictureFace()
    RejectBorderFaces()
    Annotate([.boxes])
    WriteOutputs()
}
