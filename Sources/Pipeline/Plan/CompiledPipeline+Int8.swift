import FaceAnalysis
import Inference

extension CompiledPipeline {
    /// What a run of this plan computes in int8, read from the plans it
    /// makes: every model as loaded (``FaceModels``), and, for each
    /// `detect-faces` stage, the search pass as its `canvas-arithmetic`
    /// plans it (``DetectorArithmetic``): the family its mode's composition
    /// searches many regions with (`DetectorComposition.arithmeticPass`):
    /// YuNet-s in `accurate` and `yunet` mode, the short-range detector on
    /// the pyramid canvases in `pyramid` mode (planned at the model's own input size: the kernels do not
    /// depend on the size). Plans with no int8 step are left out.
    package func int8Plans() throws -> [Int8Plan] {
        var plans: [Int8Plan] = []
        for model in faceModels.models {
            let loaded = try faceModels.model(model)
            plans.append(Int8Plan(subject: model.fileName, steps: loaded.stepSummaries))
        }
        for step in steps {
            guard step.definition.name == "detect-faces" else { continue }
            func option(_ name: String) -> String? { step.definition.options.first { $0.name == name }?.value }
            guard let mode = option("mode").flatMap(DetectorMode.init(optionText:)),
                  let arithmetic = option("canvas-arithmetic").flatMap(DetectorArithmetic.init(optionText:)) else { continue }
            // The unconfirmed option does not change the search pass.
            guard let pass = mode.composition(unconfirmed: .scored).arithmeticPass else { continue }
            let (family, subject) = (pass.family, pass.subject)
            let model = try faceModels.model(family.model)
            let planned = try model.resized(inputShape: model.inputs[0].shape, firstConvolution: arithmetic.firstConvolution,
                                            pointwise: family.pointwise(arithmetic), grids: family.grids(arithmetic))
            plans.append(Int8Plan(subject: "\(family.model.fileName) \(subject) (detect-faces canvas-arithmetic: \(arithmetic.rawValue))",
                                  steps: planned.stepSummaries))
        }
        return plans.filter { $0.int8Count > 0 }
    }
}
