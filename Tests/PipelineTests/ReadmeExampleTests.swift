import Foundation
import Pipeline
import Testing
import _TestSupport

// docs/PIPELINES.md's "Writing a pipeline or a stage" example, kept compiling here.

struct DropSmallFaces: Stage {
    var minWidth: Float
    static var optionTable: [StageOption<Self>] { [StageOption("min-width", \.minWidth)] }   // --set drop-small-faces.min-width=120
    var definition: StageDefinition { StageDefinition("drop-small-faces", optionsOf: self) }
    var caching: StageCaching { .records }
    func process(_ frame: Frame<Phase.Detected>, context: StageContext) throws -> Frame<Phase.Detected> {
        var frame = frame
        frame.reject(reason: "narrower than \(minWidth) px") { $0.box.width < minWidth }
        return frame
    }
}

let readmePipeline = Pipeline("mine", summary: "large faces with landmarks") {
    Decode()
    Orient()
    DetectFaces(.accurate, minFaceSize: 0.05)
    DropSmallFaces(minWidth: 80)
    ForEachFace {
        Landmarks(iris: true, contours: true, ibug68: true)
        Pose()
        Classify()
        Quality()
    }
    Filter("frontal", reason: "not frontal") { face, _ in (face.pose?.yaw ?? 0).magnitude < 20 }
    Track()
    Annotate([.boxes, .contours, .labels])
    WriteOutputs()
}

@Test func theReadmeExampleDescribesItsStages() {
    #expect(readmePipeline.stages.map(\.name) == [
        "decode", "orient", "detect-faces", "drop-small-faces", "for-each-face", "filter", "track", "annotate", "write-outputs",
    ])
    #expect(readmePipeline.stages[4].children.map(\.name) == ["landmarks", "pose", "classify", "quality"])
}

@Test(.enabled(if: Fixtures.modelsAvailable, "needs the models (make models)"))
func theReadmeExampleRunsWithAFaceEngine() async throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let plan = try readmePipeline.compile(modelsDirectory: Fixtures.model(""))
    let summary = try await PipelineRunner.run(plan, inputs: [.archive(path: try FaceStageTests.archive(in: folder))],
                                               configuration: RunConfiguration(
                                                   outputDirectory: folder.appendingPathComponent("out"), workers: 2,
                                                   faceEngine: FaceEngineFactory { _ in RedSquareFaceEngine(made: CallCounter()) }),
                                               toolVersion: "test")
    let rows = try manifestRows(folder.appendingPathComponent("out"))
    #expect(summary.failedEntries == 0)
    #expect(rows.filter { $0[3] == "rejected" }.allSatisfy { $0[Manifest.columns.firstIndex(of: "rejection")!].hasPrefix("narrower than 80") })
    #expect(rows.contains { $0[3] == "rejected" }, "the 22-px test squares are dropped")
}
