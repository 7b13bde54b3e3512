/// The arithmetic of a model's first layer, chosen when it is planned
/// (`Model.resized(inputShape:firstConvolution:)`), never by the CPU.
///
/// `.float32` runs every layer in fp32, as TFLite does. `.int8` is for an
/// image model whose input is the picture's bytes normalised as
/// `p·(2/255) − 1` and read by a CONV_2D straight away (BlazeFace): the
/// input is then the bytes themselves (`Interpreter.withByteInput`), the
/// normalisation is folded into that convolution's weights, quantized per
/// output channel to 7-bit integers, and the layer sums integers exactly
/// (`Int8ConvolutionKernel`); every later step is the fp32 path. Its outputs
/// differ slightly from fp32 (the weights are rounded to 7 bits) but are
/// the same bits on every CPU.
public enum FirstConvolution: String, Sendable, CaseIterable, CustomStringConvertible {
    case float32
    case int8

    public var description: String { rawValue }
}
