import FaceAnalysis
import Foundation
import Pipeline
import Testing
import _TestSupport

/// The model hashes exist twice: in scripts/models.sha256 and
/// scripts/yunet.sha256 (what setup verifies when it downloads; the second
/// also holds YuNet's licence file) and in the catalogue `FaceModel` (what
/// `compile()` verifies before a run). They must never drift apart.
@Test func modelHashesMatchTheSetupChecksums() throws {
    var listing = ""
    for file in ["scripts/models.sha256", "scripts/yunet.sha256"] {
        listing += try String(contentsOf: Fixtures.repositoryRoot.appendingPathComponent(file), encoding: .utf8) + "\n"
    }
    var expected: [String: String] = [:]
    for line in listing.split(separator: "\n") {
        let fields = line.split(separator: " ", omittingEmptySubsequences: true)
        guard fields.count == 2 else { continue }
        expected[String(fields[1])] = String(fields[0])
    }
    expected["yunet_s.LICENSE"] = nil
    #expect(expected.count == FaceModel.allCases.count)
    for model in FaceModel.allCases {
        #expect(expected[model.fileName] == model.sha256, "\(model.fileName)")
    }
}

/// A pipeline that detects with `mode` and draws: the models it needs are the detector's only.
private func detectionOnly(_ mode: DetectorMode) -> Pipeline {
    Pipeline("detect-\(mode.rawValue)") {
        Decode()
        Orient()
        DetectFaces(mode)
        Annotate()
        WriteOutputs()
    }
}

/// A plan loads exactly the models its stages name: a pipeline that needs
/// only the short-range detector compiles and runs with only that file.
@Test(.enabled(if: Fixtures.modelsAvailable, "needs the models (make models)"))
func aPlanLoadsOnlyTheModelsItsStagesName() throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    try FileManager.default.copyItem(at: Fixtures.model(FaceModel.shortRangeDetector.fileName),
                                     to: folder.appendingPathComponent(FaceModel.shortRangeDetector.fileName))
    let fast = detectionOnly(.fast)
    let plan = try fast.compile(modelsDirectory: folder)
    #expect(plan.faceModels.models == [.shortRangeDetector])
    #expect(throws: FaceAnalysisError.modelNotLoaded(file: FaceModel.faceMesh.fileName)) {
        _ = try plan.faceModels.model(.faceMesh)
    }
    let accurate = detectionOnly(.pyramid)
    #expect(throws: PipelineError.modelMissing(file: FaceModel.fullRangeDetector.fileName, directory: folder.path)) {
        _ = try accurate.compile(modelsDirectory: folder)
    }
}

/// A model file with other bytes is refused at compile time, naming both hashes.
@Test func aModelWithTheWrongHashIsRefused() throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent(FaceModel.shortRangeDetector.fileName)
    try Data("not a model".utf8).write(to: file)
    let fast = detectionOnly(.fast)
    #expect(throws: PipelineError.modelHashMismatch(
        file: FaceModel.shortRangeDetector.fileName, expected: FaceModel.shortRangeDetector.sha256,
        actual: "708811ccb1510c6d6c6e6379ef09be39bdbb0e7edcf44fefcca21c6228ee6d89")) {
        _ = try fast.compile(modelsDirectory: folder)
    }
}
