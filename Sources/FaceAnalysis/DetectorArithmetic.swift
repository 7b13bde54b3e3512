import Inference

/// The arithmetic of the search passes (`FaceDetectionOptions.canvasArithmetic`):
/// the short-range detector on `.pyramid` mode's canvases, and YuNet-s in
/// `.accurate` and `.yunet` modes (its first layer as `firstConvolution`,
/// its 1×1 convolutions as `yunetPointwise`). The whole-frame runs, the
/// squares accurate mode confirms faces on and the landmark models are
/// fp32 either way.
public enum DetectorArithmetic: String, Sendable, Codable, CaseIterable {
    /// Every layer in fp32, as TFLite runs the model.
    case float32
    /// The first convolution (5×5/2, 3 → 24 channels) reads the canvas's
    /// bytes with 7-bit weights and exact integer sums
    /// (`FirstConvolution.int8`); every later layer is fp32. Faster; scores
    /// and boxes differ slightly from fp32, the same on every CPU.
    case int8FirstLayer = "int8-first-layer"
    /// The first convolution as `.int8FirstLayer`, and every block
    /// projection (the 1×1 convolution after each depthwise one) on inputs
    /// quantized per pixel to 8 bits with 7-bit weights and exact integer
    /// sums (`PointwiseConvolution.int8`); depthwise layers, residuals and
    /// the heads stay fp32. Faster again; the same bits on every CPU.
    case int8
    /// As `.int8`, with YuNet-s's activations held as bytes on fixed grids
    /// calibrated once (``YuNetGrids``, `ActivationGrids`: static int8, as
    /// XNNPACK's QS8 runs a network): its 1×1 and depthwise layers read and
    /// write bytes and sum them exactly against 8-bit weights, its heads
    /// write floats. Faster than `.int8` on AVX-512 with VNNI; the same
    /// bytes on every CPU. BlazeFace's canvases run as in `.int8`.
    case staticInt8 = "static-int8"

    /// The plan option it selects.
    package var firstConvolution: FirstConvolution {
        switch self {
        case .float32: .float32
        case .int8FirstLayer, .int8, .staticInt8: .int8
        }
    }

    /// YuNet-s's 1×1 convolutions' plan option: with `.int8`, every one
    /// (its block projections and the 1×1 convolutions reading its first
    /// layer, pools and the neck's sums).
    package var yunetPointwise: PointwiseConvolution {
        self == .int8 || self == .staticInt8 ? .int8Every : .float32
    }

    /// The block projections' plan option.
    package var pointwise: PointwiseConvolution {
        switch self {
        case .float32, .int8FirstLayer: .float32
        case .int8, .staticInt8: .int8
        }
    }
}
