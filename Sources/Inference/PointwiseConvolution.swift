/// The arithmetic of a model's block projections, chosen when it is
/// planned (`Model.resized(inputShape:firstConvolution:pointwise:)`),
/// never by the CPU.
///
/// A block projection is a 1×1 convolution that reads a depthwise
/// convolution's output (BlazeFace's blocks: depthwise 3×3, then 1×1, then
/// the residual ADD and ReLU). `.float32` runs them in fp32, as TFLite does.
/// `.int8` quantizes each input pixel on the fly by its own largest
/// magnitude to 8 bits, the weights per output channel to 7 bits, and sums
/// integers exactly (`Int8PointwiseKernel`, `CInt8Convolution`'s
/// `int8_pointwise.h`); bias, residual and activations stay fp32. The heads
/// and every other layer keep their arithmetic. Outputs differ slightly
/// from fp32 but are the same bits on every CPU. `.int8Every` runs every
/// 1×1 convolution that way, whatever produced its input (YuNet-s, whose
/// 1×1 convolutions also read its first layer, max pools and the neck's
/// sums: 29 % of its multiply-adds that `.int8` leaves in fp32).
public enum PointwiseConvolution: String, Sendable, CaseIterable, CustomStringConvertible {
    case float32
    case int8
    case int8Every = "int8-every"

    public var description: String { rawValue }
}
