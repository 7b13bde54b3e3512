import FaceAnalysis
import Inference

extension CompiledPipeline {
    /// What a run of this plan computes in int8, read from the plans it
    /// makes: every model as loaded (``FaceModels``), and, for each
    /// `detect-faces` stage in `accurate` or `pyramid` mode, the
    /// short-range detector on the pyramid canvases as its
    /// `canvas-arithmetic` plans it (``DetectorArithmetic``; planned at the
    /// model's own input size: the kernels do not depend on the size).
    /// Plans with no int8 step are left out.
    package func int8Plans() throws -> [Int8Plan] {
        var plans: [Int8Plan] = []
        for model in faceModels.models {
            let loaded = try faceModels.model(model)
            plans.append(Int8Plan(subject: model.fileName, steps: loaded.stepSummaries))
        }
        for step in steps {
            guard step.definition.name == "detect-faces" else { continue }
            func option(_ name: String) -> String? { step.definition.options.first { $0.name == name }?.value }
            guard let mode = option("mode").flatMap(DetectorMode.init(optionText:)), mode == .accurate || mode == .pyramid,
                  let arithmetic = option("canvas-arithmetic").flatMap(DetectorArithmetic.init(optionText:)) else { continue }
            let detector = try faceModels.model(.shortRangeDetector)
            let canvas = try detector.resized(inputShape: detector.inputs[0].shape, firstConvolution: arithmetic.firstConvolution,
                                              pointwise: arithmetic.pointwise)
            plans.append(Int8Plan(subject: "\(FaceModel.shortRangeDetector.fileName) on the pyramid canvases (detect-faces canvas-arithmetic: \(arithmetic.rawValue))",
                                  steps: canvas.stepSummaries))
        }
        return plans.filter { $0.int8Count > 0 }
    }
}
