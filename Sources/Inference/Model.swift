import Foundation
import TFLite

/// A TFLite model prepared for execution: parsed, validated, weights
/// dequantized, densified and packed once. Read-only after `init`, so one
/// `Model` is shared by all interpreters on all threads.
public final class Model: Sendable {
    public let inputs: [TensorDescription]
    public let outputs: [TensorDescription]
    /// Operator counts, MACs, parameters and arena size.
    public let statistics: ModelStatistics
    let plan: Plan
    let constants: ConstantPool
    /// The parsed file, kept to re-plan at other input sizes (`resized`).
    let file: TFLiteModel
    /// The micro-kernel set the plan chose from (see `KernelSet`).
    public let kernels: KernelSet
    /// The first convolution's arithmetic: with `.int8` the input is bytes
    /// (`Interpreter.withByteInput`, see `FirstConvolution`).
    public let firstConvolution: FirstConvolution
    /// The block projections' arithmetic (see `PointwiseConvolution`).
    public let pointwise: PointwiseConvolution
    /// The tensors held as bytes on fixed grids, if any (see `ActivationGrids`).
    public let grids: ActivationGrids?

    /// Reads the file at `url`; throws `InferenceError` when it cannot be read,
    /// `ModelError` when it is malformed, `InferenceError` when it needs an
    /// operator, type or shape the engine does not support.
    ///
    /// - Parameters:
    ///   - inputShape: plan the single `[1, H, W, C]` input at this
    ///     shape instead of the declared one (see `resized(inputShape:)`).
    ///   - kernels: the micro-kernel set to plan with (`KernelSet.best`
    ///     unless a test compares sets); an unavailable set falls back to `.avx2`.
    ///   - firstConvolution: `.int8` to run the first layer on the
    ///     picture's bytes (see `FirstConvolution`; throws
    ///     `InferenceError` when the graph does not start that way).
    public convenience init(contentsOf url: URL, inputShape: [Int]? = nil, kernels: KernelSet = .best,
                            firstConvolution: FirstConvolution = .float32) throws {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw InferenceError(.unreadableModel(path: url.path, reason: error.localizedDescription))
        }
        try self.init(bytes: [UInt8](data), inputShape: inputShape, kernels: kernels, firstConvolution: firstConvolution)
    }

    /// Parses and plans the model in `bytes`, at its declared input shape or at `inputShape`.
    public convenience init(bytes: [UInt8], inputShape: [Int]? = nil, kernels: KernelSet = .best,
                            firstConvolution: FirstConvolution = .float32) throws {
        try self.init(file: try TFLiteModel(bytes: bytes), inputShape: inputShape, sharedConstants: nil,
                      kernels: kernels.isAvailable ? kernels : .avx2, firstConvolution: firstConvolution)
    }

    /// Plans a model declared in code (`TFLiteModel(subgraphs:bytes:buffers:)`),
    /// at its declared input shape or at `inputShape`; throws like `init(bytes:)`.
    public convenience init(file: TFLiteModel, inputShape: [Int]? = nil, kernels: KernelSet = .best) throws {
        try self.init(file: file, inputShape: inputShape, sharedConstants: nil,
                      kernels: kernels.isAvailable ? kernels : .avx2, firstConvolution: .float32)
    }

    private init(file: TFLiteModel, inputShape: [Int]?, sharedConstants: ConstantPool?, kernels: KernelSet,
                 firstConvolution: FirstConvolution, pointwise: PointwiseConvolution = .float32, grids: ActivationGrids? = nil) throws {
        var planner = try Planner(file: file, inputShape: inputShape, sharedConstants: sharedConstants, kernels: kernels,
                                  firstConvolution: firstConvolution, pointwise: pointwise, grids: grids)
        do {
            (plan, constants) = try planner.plan()
        } catch var error as InferenceError where planner.resized {
            error.inputShape = inputShape
            throw error
        }
        self.file = file
        self.kernels = kernels
        self.firstConvolution = firstConvolution
        self.pointwise = pointwise
        self.grids = grids
        statistics = planner.statistics
        let graph = file.subgraphs[0]
        inputs = graph.inputs.map { TensorDescription(name: graph.tensors[$0].name, shape: planner.shapes[$0]!) }
        outputs = graph.outputs.map { TensorDescription(name: graph.tensors[$0].name, shape: planner.shapes[$0]!) }
    }

    /// The same model planned for a `[1, H, W, C]` input of another spatial
    /// size: for fully convolutional models such as BlazeFace, whose outputs
    /// then cover an (H/stride)×(W/stride) grid.
    ///
    /// Shapes are inferred from the new input; RESIZE_BILINEAR keeps its
    /// declared integral scale factor; a RESHAPE target keeps every declared
    /// dimension but the one holding the spatial extent. The packed weights
    /// are shared with this model, not prepared again.
    ///
    /// - Throws: `InferenceError` naming the operator when the graph cannot
    ///   take that size (a non-integral resize, operands of an ADD that no
    ///   longer match because a size does not divide by the network's stride,
    ///   an ambiguous reshape, a model with several inputs).
    public func resized(inputShape: [Int]) throws -> Model {
        try Model(file: file, inputShape: inputShape, sharedConstants: constants, kernels: kernels, firstConvolution: firstConvolution,
                  pointwise: pointwise, grids: grids)
    }

    /// `resized(inputShape:)` with the first convolution's and the block
    /// projections' arithmetic chosen (see `FirstConvolution`,
    /// `PointwiseConvolution`), and the tensors held as bytes
    /// (`ActivationGrids`). The packed weights are shared only when all
    /// three are this model's; otherwise the file is planned afresh (resize
    /// that model for further sizes to share its weights).
    /// - Throws: as `resized(inputShape:)`, and `InferenceError` when
    ///   `.int8` is asked of a graph that does not start with a CONV_2D on
    ///   its 3-channel float input, or `grids` names a tensor the plan cannot hold as bytes.
    public func resized(inputShape: [Int], firstConvolution: FirstConvolution,
                        pointwise: PointwiseConvolution = .float32, grids: ActivationGrids? = nil) throws -> Model {
        guard firstConvolution != self.firstConvolution || pointwise != self.pointwise || grids != self.grids else {
            return try resized(inputShape: inputShape)
        }
        return try Model(file: file, inputShape: inputShape, sharedConstants: nil, kernels: kernels, firstConvolution: firstConvolution,
                         pointwise: pointwise, grids: grids)
    }

    /// This model with its QS8 steps run by `pointwise` and `depthwise`
    /// (nil: as planned), for the kernel testers that compare every kernel.
    package func replacingQS8Kernels(pointwise: QS8PointwiseKernel? = nil, depthwise: QS8DepthwiseKernel? = nil) -> Model {
        var plan = self.plan
        for index in plan.steps.indices {
            switch plan.steps[index] {
            case var .qs8Pointwise(step):
                step.kernel = pointwise ?? step.kernel
                plan.steps[index] = .qs8Pointwise(step)
            case var .qs8Depthwise(step):
                step.kernel = depthwise ?? step.kernel
                plan.steps[index] = .qs8Depthwise(step)
            default:
                break
            }
        }
        return Model(copying: self, plan: plan)
    }

    /// The name of each plan step's output tensor, in execution order (`stepSummaries`' order).
    package var stepOutputNames: [String] { plan.outputNames }

    /// This model with its int8 first convolution run by `kernel`, for the
    /// kernel tester that compares every kernel (the planner picks one per CPU).
    package func replacingInt8Kernel(with kernel: Int8ConvolutionKernel) -> Model {
        var plan = self.plan
        for index in plan.steps.indices {
            guard case var .int8Convolution(step) = plan.steps[index] else { continue }
            step.kernel = kernel
            plan.steps[index] = .int8Convolution(step)
        }
        return Model(copying: self, plan: plan)
    }

    /// This model with its int8 block projections run by `kernel`, for the
    /// kernel tester that compares every kernel.
    package func replacingInt8PointwiseKernel(with kernel: Int8PointwiseKernel) -> Model {
        var plan = self.plan
        for index in plan.steps.indices {
            guard case var .int8Pointwise(step) = plan.steps[index] else { continue }
            step.kernel = kernel
            plan.steps[index] = .int8Pointwise(step)
        }
        return Model(copying: self, plan: plan)
    }

    private init(copying other: Model, plan: Plan) {
        inputs = other.inputs
        outputs = other.outputs
        statistics = other.statistics
        self.plan = plan
        constants = other.constants
        file = other.file
        kernels = other.kernels
        firstConvolution = other.firstConvolution
        pointwise = other.pointwise
        grids = other.grids
    }
}
