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
    /// Each detector family's runs, made on first use from the shared models.
    var wholeFrameDetectors: [DetectorFamily: (runner: ModelRunner, decoder: DetectionDecoder)] = [:]
    var canvasDetectors: [SearchPass: CanvasDetector] = [:]
    var tiledDetectors: [SearchPass: YuNetDetector] = [:]
    var meshRunner: ModelRunner?
    var irisRunner: ModelRunner?
    /// When set, a canvas-pyramid search reports what it does (probes only).
    package var searchObserver: (any PyramidSearchObserver)?

    public init(models: FaceModels) {
        self.models = models
    }

    /// A family's search pass in one arithmetic: the key of its detectors.
    struct SearchPass: Hashable {
        var family: DetectorFamily
        var arithmetic: DetectorArithmetic
    }

    /// `family` (anchors) on a whole square input.
    func wholeFrameDetector(_ family: DetectorFamily) throws(FaceAnalysisError) -> (runner: ModelRunner, decoder: DetectionDecoder) {
        if let existing = wholeFrameDetectors[family] { return existing }
        guard let layout = family.anchorLayout else { throw .invalidOption("detector family \(family) has no anchor layout") }
        let made = (try ModelRunner(model: try models.model(family.model), name: family.model.fileName),
                    DetectionDecoder(configuration: layout))
        wholeFrameDetectors[family] = made
        return made
    }

    /// `family` (anchors) on canvases of any size (a pyramid's) in `arithmetic`.
    func canvasDetector(_ family: DetectorFamily, _ arithmetic: DetectorArithmetic) throws(FaceAnalysisError) -> CanvasDetector {
        let pass = SearchPass(family: family, arithmetic: arithmetic)
        if let existing = canvasDetectors[pass] { return existing }
        guard let layout = family.anchorLayout else { throw .invalidOption("detector family \(family) has no anchor layout") }
        let made = CanvasDetector(model: try models.model(family.model), configuration: layout, arithmetic: arithmetic)
        canvasDetectors[pass] = made
        return made
    }

    /// `family` (YuNet-s's heads) over tiles in `arithmetic`.
    func tiledDetector(_ family: DetectorFamily, _ arithmetic: DetectorArithmetic) throws(FaceAnalysisError) -> YuNetDetector {
        let pass = SearchPass(family: family, arithmetic: arithmetic)
        if let existing = tiledDetectors[pass] { return existing }
        let made = try YuNetDetector(model: try models.model(family.model), minimumScore: DetectionDecoder.defaultMinScore,
                                     firstConvolution: arithmetic.firstConvolution, pointwise: family.pointwise(arithmetic),
                                     grids: family.grids(arithmetic))
        tiledDetectors[pass] = made
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
