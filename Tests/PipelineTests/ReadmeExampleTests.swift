import Foundation
import Pipeline
import PipelineRunning
import Pipelines
import RunFolders
import Testing
import _TestSupport

// docs/PIPELINES.md's "Writing a pipeline or a stage" example (DocExamples/WritingAPipeline.swift,
// the same lines the page shows), described and run.
let readmePipeline = Pipelines.mine

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
