import ImageCore
import Inference

/// The detector run on accurate mode's canvases (`DetectorConfiguration.canvas`): the model is
/// planned once per canvas size (sharing the packed weights, see
/// `Model.resized`) and all sizes run on one interpreter whose arena grows
/// to the largest canvas. The arena stays for the worker's lifetime:
/// releasing it after each picture (tried) saved no peak memory once malloc
/// arenas were capped, and re-faulting its pages cost 10 % more CPU on the
/// bench archive. One per `FaceAnalyzer` and ``DetectorArithmetic``, so
/// not `Sendable`. With `.int8FirstLayer` the canvases are planned with an
/// int8 first convolution (`FirstConvolution.int8`) and fed the level
/// image's bytes.
final class CanvasDetector {
    let model: Model
    let configuration: DetectorConfiguration
    let arithmetic: DetectorArithmetic
    private var plans: [SIMD2<Int>: Model] = [:]
    /// The first plan made, which later sizes are resized from, sharing
    /// its packed weights (an int8 plan packs its own).
    private var firstPlan: Model?
    private var interpreter: Interpreter?

    init(model: Model, configuration: DetectorConfiguration, arithmetic: DetectorArithmetic) {
        self.model = model
        self.configuration = configuration
        self.arithmetic = arithmetic
    }

    /// Detections in `canvas` of `levelImage`, in canvas pixels, before NMS.
    func detect(in levelImage: RGBImage, canvas: DetectionRegionPlan.Canvas, minScore: Float) throws(FaceAnalysisError) -> [NormalizedDetection] {
        let interpreter = try self.interpreterForAnySize()
        let sized = try plan(width: canvas.width, height: canvas.height)
        do { try interpreter.switchModel(to: sized) } catch {
            throw .inference(model: configuration.modelFile, message: "\(error)")
        }
        switch arithmetic {
        case .float32:
            interpreter.withInput(0) { input in
                TensorSampler.crop(levelImage, x: canvas.x, y: canvas.y, width: canvas.width, height: canvas.height,
                                   valueScale: 2 / 255, valueOffset: -1, into: input)
            }
        case .int8FirstLayer:
            // The same canvas as bytes: black (0) outside the level image, where the float canvas has −1.
            interpreter.withByteInput { input in
                TensorSampler.cropBytes(levelImage, x: canvas.x, y: canvas.y, width: canvas.width, height: canvas.height, into: input)
            }
        }
        interpreter.invoke()
        let anchors = configuration.anchorCount(width: canvas.width, height: canvas.height)
        guard let regressorIndex = sized.outputs.firstIndex(where: { $0.elementCount == anchors * 16 }),
              let scoreIndex = sized.outputs.firstIndex(where: { $0.elementCount == anchors }) else {
            throw .unexpectedModelShape(model: configuration.modelFile,
                                        detail: "at \(canvas.width)×\(canvas.height) the outputs \(sized.outputs) do not hold \(anchors) anchors")
        }
        let decoded = interpreter.withOutput(regressorIndex) { regressors in
            interpreter.withOutput(scoreIndex) { scores in
                Result { () throws(FaceAnalysisError) in
                    try DetectionDecoder.decodeGrid(regressors: regressors, classificators: scores, width: canvas.width, height: canvas.height,
                                                    configuration: configuration, minScore: minScore)
                }
            }
        }
        return try decoded.get()
    }

    /// The interpreter, created with the arena of the largest canvas so that
    /// it never grows: a growing arena would leave freed blocks of every
    /// intermediate size behind in the allocator.
    private func interpreterForAnySize() throws(FaceAnalysisError) -> Interpreter {
        if let interpreter { return interpreter }
        let side = DetectionRegionPlan.maximumCanvasSide
        do {
            let made = try Interpreter(model: try plan(width: side, height: side))
            interpreter = made
            return made
        } catch let error as FaceAnalysisError {
            throw error
        } catch {
            throw .inference(model: configuration.modelFile, message: "\(error)")
        }
    }

    /// The model planned for a `width × height` input, cached per size.
    func plan(width: Int, height: Int) throws(FaceAnalysisError) -> Model {
        let key = SIMD2(width, height)
        if let cached = plans[key] { return cached }
        let sized: Model
        do {
            let shape = [1, height, width, 3]
            sized = try firstPlan?.resized(inputShape: shape)
                ?? model.resized(inputShape: shape, firstConvolution: arithmetic.firstConvolution)
        } catch {
            throw .inference(model: configuration.modelFile, message: "planning a \(width)×\(height) canvas: \(error)")
        }
        plans[key] = sized
        if firstPlan == nil { firstPlan = sized }
        return sized
    }
}
