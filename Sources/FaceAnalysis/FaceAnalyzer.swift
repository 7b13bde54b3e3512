import ImageCore
import Inference

/// Runs the face models for one worker: detection on whole images, then
/// Face Mesh and Iris on the faces the caller keeps. Owns its interpreters
/// (created on first use), so it is not `Sendable`: make one per worker from
/// the shared `FaceModels`.
///
/// All coordinates are upright-image pixels, origin top-left, x right, y down.
public final class FaceAnalyzer {
    public let models: FaceModels
    var detectors: [DetectorMode: (runner: ModelRunner, decoder: DetectionDecoder)] = [:]
    var canvasDetectors: [DetectorArithmetic: CanvasDetector] = [:]
    var meshRunner: ModelRunner?
    var irisRunner: ModelRunner?
    var yunetDetectors: [DetectorArithmetic: YuNetDetector] = [:]
    /// When set, `detect` records where its CPU went (probes only).
    package var trace: DetectionTrace?

    public init(models: FaceModels) {
        self.models = models
    }

    func detector(_ mode: DetectorMode) throws(FaceAnalysisError) -> (runner: ModelRunner, decoder: DetectionDecoder) {
        if let existing = detectors[mode] { return existing }
        let configuration = DetectorConfiguration.forMode(mode)
        let made = (try ModelRunner(model: try models.detector(mode), name: configuration.modelFile),
                    DetectionDecoder(configuration: configuration))
        detectors[mode] = made
        return made
    }

    /// The detector for canvases of any size (accurate mode's pyramid) in `arithmetic`.
    func canvasDetector(_ arithmetic: DetectorArithmetic) throws(FaceAnalysisError) -> CanvasDetector {
        if let existing = canvasDetectors[arithmetic] { return existing }
        let made = CanvasDetector(model: try models.model(DetectorConfiguration.canvas.model), configuration: .canvas,
                                  arithmetic: arithmetic)
        canvasDetectors[arithmetic] = made
        return made
    }

    func faceMesh() throws(FaceAnalysisError) -> ModelRunner {
        if let meshRunner { return meshRunner }
        let runner = try ModelRunner(model: try models.model(.faceMesh), name: FaceModel.faceMesh.fileName)
        meshRunner = runner
        return runner
    }

    func irisModel() throws(FaceAnalysisError) -> ModelRunner {
        if let irisRunner { return irisRunner }
        let runner = try ModelRunner(model: try models.model(.iris), name: FaceModel.iris.fileName)
        irisRunner = runner
        return runner
    }
}
