import InferenceWide

/// An activation applied per output channel in a kernel epilogue or an elementwise step.
enum Activation: Sendable, Equatable {
    case none
    case relu
    case relu6
    /// Per-channel slope; offset of the slopes (padded to a multiple of 8) in the constant pool.
    case prelu(alpha: Int)

    /// The same activation for `InferenceWide`'s kernels.
    func wide(_ constants: UnsafePointer<Float>) -> WideActivation {
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
    /// it (`.lanes16` 1×1 convolutions only); nil: the output's channels.
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
        /// Packed `[ceil(O/8)][KH][KW][I][8]`.
        var weights: Int
        /// For a `.lanes16` model, the same weights packed again for
        /// `InferenceWide`: a 1×1 convolution's `[ceil(O/16)][I][16]`
        /// (`WidePointwise`), a 24-channel windowed convolution's
        /// `[KH][KW][I][32]` (`WideWindowed24`, interior pixels), or a 16- or
        /// 32-channel one's `[O/16][KH·KW·I][16]` (`WideWindowedBlocks`).
        var wideWeights: Int?
        var geometry: WindowGeometry
        var epilogue: Epilogue
    }
    struct Depthwise: Sendable {
        var input: Int, output: Int
        /// Packed `[KH][KW][roundUp8(C)]`.
        var weights: Int
        /// For a `.lanes16` model's stride-1 3×3 depthwise without a fused
        /// ADD: weights, bias and slopes packed for `WideDepthwise3x3`,
        /// which runs the whole step (`Kernels.wideDepthwise3x3`).
        var wideTable: Int? = nil
        /// With `wideTable`: arena offset of `Kernels.wideDepthwiseScratch`
        /// floats past every tensor, for a row of zeros and a border window.
        var scratch = 0
        var geometry: WindowGeometry
        var epilogue: Epilogue
    }
    struct MaxPool: Sendable {
        var input: Int, output: Int
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
    struct DepthToSpace: Sendable {
        var input: Int, output: Int
        var inHeight: Int, inWidth: Int, inChannels: Int
        var block: Int
    }

    case convolution(Convolution)
    case depthwise(Depthwise)
    case maxPool(MaxPool)
    case add(Binary)
    case activation(Unary)
    case pad(Pad)
    case copy(Copy)
    case concatenation(Concatenation)
    case resizeBilinear(ResizeBilinear)
    case depthToSpace(DepthToSpace)
}

/// The executable form of a model: steps in order, arena size and where the
/// graph's inputs and outputs live in the arena.
struct Plan: Sendable {
    var steps: [Step]
    /// Floats the arena needs (without the read slack).
    var arenaSize: Int
    var inputOffsets: [Int]
    var outputOffsets: [Int]
}
