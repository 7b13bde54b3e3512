import InferenceWide

/// An activation applied per output channel in a kernel epilogue or an elementwise step.
enum Activation: Sendable, Equatable {
    case none
    case relu
    case relu6
    /// Per-channel slope; offset of the slopes (padded to a multiple of 8) in the constant pool.
    case prelu(alpha: Int)

    /// The same activation for `InferenceWide`'s AVX-512 kernels.
    func avx512(_ constants: UnsafePointer<Float>) -> AVX512Activation {
        switch self {
        case .none: .none
        case .relu: .relu
        case .relu6: .relu6
        case let .prelu(alpha): .prelu(constants + alpha)
        }
    }
}

/// What a convolution does with each accumulated output vector:
/// `second(first(acc + bias) + residual)`.
struct Epilogue: Sendable, Equatable {
    /// Offset of the bias (padded to a multiple of 8) in the constant pool.
    var bias: Int
    var first: Activation
    /// Arena offset of a tensor shaped like the output, added after `first` (a fused ADD).
    var residual: Int?
    /// Channels per pixel of `residual` when a channel PAD was folded into
    /// it (`conv1x1_8x32_avx512` steps only); nil: the output's channels.
    var residualChannels: Int? = nil
    var second: Activation
}

/// Geometry shared by convolutions, depthwise convolutions and pools (NHWC, batch 1).
struct WindowGeometry: Sendable, Equatable {
    var inHeight: Int, inWidth: Int, inChannels: Int
    var outHeight: Int, outWidth: Int, outChannels: Int
    var kernelHeight: Int, kernelWidth: Int
    var strideHeight: Int, strideWidth: Int
    /// Zero padding before the first row / column (after is implied by the output size).
    var padTop: Int, padLeft: Int

    var isPointwise: Bool {
        kernelHeight == 1 && kernelWidth == 1 && strideHeight == 1 && strideWidth == 1 && padTop == 0 && padLeft == 0
            && inHeight == outHeight && inWidth == outWidth
    }
}

/// One executable step. Tensor locations are float offsets: `input`/`output` into the
/// interpreter's arena, `weights`/`bias`/`alpha` into the model's constant pool.
enum Step: Sendable {
    struct Convolution: Sendable {
        var input: Int, output: Int
        /// The micro-kernel the planner chose for this step.
        var kernel: ConvolutionKernel
        /// Offset of `kernel`'s packed weights (layout: `ConvolutionKernel`).
        var weights: Int
        var geometry: WindowGeometry
        var epilogue: Epilogue
    }
    /// An `.int8` first convolution (`FirstConvolution`): `input` holds the
    /// picture's bytes, `table` is `Int8ConvolutionWeights`' block.
    struct Int8Convolution: Sendable {
        var input: Int, output: Int
        var kernel: Int8ConvolutionKernel
        var table: Int
        var geometry: WindowGeometry
        /// The activation as a clamp.
        var lower: Float, upper: Float
        /// Bytes from one input row to the next: nil, W×I (the whole
        /// tensor); a streamed window's rows are whole floats apart
        /// (`TensorRows.rowFloats`).
        var inRowBytes: Int? = nil
        /// Nil: floats out; otherwise the step of the byte grid it writes (`ActivationGrids`).
        var outputStep: Float? = nil
    }
    /// An `.int8` block projection (`PointwiseConvolution`): a 1×1
    /// convolution on float input quantized as it is read; `table` is
    /// `Int8PointwiseWeights`' block; the epilogue is the fp32 one.
    struct Int8Pointwise: Sendable {
        var input: Int, output: Int
        var kernel: Int8PointwiseKernel
        var table: Int
        var geometry: WindowGeometry
        var epilogue: Epilogue
    }
    /// A QS8 1×1 convolution (`ActivationGrids`): bytes in (zero point
    /// 0), bytes (zero point 128) or floats out; `table` is
    /// `QS8PointwiseWeights`' block.
    struct QS8Pointwise: Sendable {
        var input: Int, output: Int
        var kernel: QS8PointwiseKernel
        var table: Int
        var geometry: WindowGeometry
        var floatOutput: Bool
    }
    /// A QS8 3×3 stride-1 depthwise convolution with its ReLU: bytes in
    /// (zero point 128), bytes out (zero point 0); `table` is
    /// `QS8DepthwiseWeights`' block.
    struct QS8Depthwise: Sendable {
        var input: Int, output: Int
        var kernel: QS8DepthwiseKernel
        var table: Int
        var geometry: WindowGeometry
    }
    /// A 2×2 stride-2 max pool of bytes (the grid kept).
    struct QS8MaxPool: Sendable {
        var input: Int, output: Int
        var geometry: WindowGeometry
    }
    /// The sum of two non-negative byte tensors onto a third grid:
    /// `lhsScale`, `rhsScale` are their steps over the output's. `count` bytes.
    struct QS8Add: Sendable {
        var lhs: Int, rhs: Int, output: Int, count: Int
        var lhsScale: Float, rhsScale: Float
    }
    /// Floats rounded onto a non-negative grid (`inverseStep`: 1 / its step). `count` values.
    struct QS8Quantize: Sendable {
        var input: Int, output: Int, count: Int
        var inverseStep: Float
    }
    struct Depthwise: Sendable {
        var input: Int, output: Int
        /// The micro-kernel the planner chose for this step.
        var kernel: DepthwiseKernel
        /// Offset of `kernel`'s packed weights (layout: `DepthwiseKernel`).
        var weights: Int
        /// For `dwconv3x3s1_4rows_avx512`: arena offset of
        /// `Kernels.depthwise3x3s1AVX512Scratch` floats past every tensor,
        /// for a row of zeros and a border window; 0 otherwise.
        var scratch = 0
        var geometry: WindowGeometry
        var epilogue: Epilogue
    }
    struct MaxPool: Sendable {
        var input: Int, output: Int
        /// The micro-kernel the planner chose for this step.
        var kernel: PoolKernel
        var geometry: WindowGeometry
    }
    struct Binary: Sendable {
        var lhs: Int, rhs: Int, output: Int, count: Int
        var activation: Activation
        var channels: Int
    }
    struct Unary: Sendable {
        var input: Int, output: Int, count: Int
        var activation: Activation
        var channels: Int
    }
    /// Zero padding of a rank-4 tensor.
    struct Pad: Sendable {
        var input: Int, output: Int
        var inShape: (Int, Int, Int, Int)
        var before: (Int, Int, Int, Int)
        var outShape: (Int, Int, Int, Int)
    }
    struct Copy: Sendable {
        var input: Int, output: Int, count: Int
    }
    /// `outer` repetitions of each input's contiguous `chunk`, inputs in order.
    struct Concatenation: Sendable {
        var inputs: [(offset: Int, chunk: Int)]
        var output: Int, outer: Int
    }
    struct ResizeBilinear: Sendable {
        var input: Int, output: Int
        var inHeight: Int, inWidth: Int, channels: Int
        var outHeight: Int, outWidth: Int
        var alignCorners: Bool, halfPixelCenters: Bool
    }
    /// RESIZE_NEAREST_NEIGHBOR: each output pixel copies one input pixel.
    /// The heights are the whole tensors' (they set the scale); a row
    /// window (`RowStep`) computes only `outputRows` (nil: all), writing
    /// their first at `output`, from input rows whose first,
    /// `firstInputRow`, is at `input`.
    struct ResizeNearestNeighbor: Sendable {
        var input: Int, output: Int
        var inHeight: Int, inWidth: Int, channels: Int
        var outHeight: Int, outWidth: Int
        var alignCorners: Bool, halfPixelCenters: Bool
        var outputRows: Range<Int>? = nil
        var firstInputRow = 0
        /// Whether the tensors are bytes (`ActivationGrids`): each pixel's
        /// `channels` bytes are then copied as `channels / 4` floats.
        var bytes = false

        /// Output rows read input rows as a `RowDependency` when the height
        /// grows by a power of two with TFLite's default coordinates
        /// (source row ⌊r / k⌋, exact in floats); nil otherwise.
        var rowUpsampling: Int? {
            guard !alignCorners, !halfPixelCenters, inHeight >= 1, outHeight % inHeight == 0 else { return nil }
            let factor = outHeight / inHeight
            return factor.nonzeroBitCount == 1 ? factor : nil
        }
    }
    struct DepthToSpace: Sendable {
        var input: Int, output: Int
        var inHeight: Int, inWidth: Int, inChannels: Int
        var block: Int
    }

    case convolution(Convolution)
    case int8Convolution(Int8Convolution)
    case int8Pointwise(Int8Pointwise)
    case qs8Pointwise(QS8Pointwise)
    case qs8Depthwise(QS8Depthwise)
    case qs8MaxPool(QS8MaxPool)
    case qs8Add(QS8Add)
    case qs8Quantize(QS8Quantize)
    case depthwise(Depthwise)
    case maxPool(MaxPool)
    case add(Binary)
    case activation(Unary)
    case pad(Pad)
    case copy(Copy)
    case concatenation(Concatenation)
    case resizeBilinear(ResizeBilinear)
    case resizeNearestNeighbor(ResizeNearestNeighbor)
    case depthToSpace(DepthToSpace)
}

/// The executable form of a model: steps in order, arena size and where the
/// graph's inputs and outputs live in the arena.
struct Plan: Sendable {
    var steps: [Step]
    /// Floats the arena needs (without the read slack).
    var arenaSize: Int
    var inputOffsets: [Int]
    /// The arithmetic of the first convolution: with `.int8` input 0 holds bytes.
    var firstConvolution: FirstConvolution = .float32
    /// The arithmetic of the block projections.
    var pointwise: PointwiseConvolution = .float32
    /// The tensors held as bytes, if any (`ActivationGrids`).
    var grids: ActivationGrids? = nil
    /// Each step's output tensor, by name (for calibration).
    var outputNames: [String] = []
    var outputOffsets: [Int]
}
