/// Scalar CONV_2D and DEPTHWISE_CONV_2D (NHWC, batch 1, square kernel and
/// stride, TFLite SAME or VALID padding) that sum each output's taps in the
/// micro-kernels' order — from zero, one fused multiply-add per tap inside
/// the input, kernel row, then column, then input channel — then add the
/// bias and apply the fused activation. Every kernel of a family must match
/// it bit for bit.
enum WindowReference {
    struct Shape {
        var height: Int, width: Int, kernel: Int, stride: Int
        /// TFLite's padding code: 0 SAME, 1 VALID.
        var padding: Int8

        func axis(_ size: Int) -> (out: Int, before: Int) {
            if padding == 1 { return ((size - kernel) / stride + 1, 0) }
            let out = (size + stride - 1) / stride
            return (out, max((out - 1) * stride + kernel - size, 0) / 2)
        }
    }

    /// TFLite's fused activation `code` (0 none, 1 ReLU, 3 ReLU6).
    static func activate(_ value: Float, _ code: Int8) -> Float {
        switch code {
        case 1: value < 0 ? 0 : value
        case 3: value < 0 ? 0 : (value > 6 ? 6 : value)
        default: value
        }
    }

    /// `weights` `[O][K][K][I]`.
    static func convolution(_ input: [Float], _ s: Shape, inChannels: Int, weights: [Float], bias: [Float],
                            activation: Int8) -> [Float] {
        let outC = bias.count
        return run(s) { oy, ox, iy0, ix0 in
            (0..<outC).map { o in
                var sum: Float = 0
                for ky in 0..<s.kernel where (0..<s.height).contains(iy0 + ky) {
                    for kx in 0..<s.kernel where (0..<s.width).contains(ix0 + kx) {
                        for i in 0..<inChannels {
                            sum = sum.addingProduct(input[((iy0 + ky) * s.width + ix0 + kx) * inChannels + i],
                                                    weights[((o * s.kernel + ky) * s.kernel + kx) * inChannels + i])
                        }
                    }
                }
                return activate(sum + bias[o], activation)
            }
        }
    }

    /// `weights` `[1][K][K][C]`.
    static func depthwise(_ input: [Float], _ s: Shape, weights: [Float], bias: [Float], activation: Int8) -> [Float] {
        let channels = bias.count
        return run(s) { oy, ox, iy0, ix0 in
            (0..<channels).map { c in
                var sum: Float = 0
                for ky in 0..<s.kernel where (0..<s.height).contains(iy0 + ky) {
                    for kx in 0..<s.kernel where (0..<s.width).contains(ix0 + kx) {
                        sum = sum.addingProduct(input[((iy0 + ky) * s.width + ix0 + kx) * channels + c],
                                                weights[(ky * s.kernel + kx) * channels + c])
                    }
                }
                return activate(sum + bias[c], activation)
            }
        }
    }

    /// Every output pixel's values in NHWC order.
    private static func run(_ s: Shape, _ pixel: (Int, Int, Int, Int) -> [Float]) -> [Float] {
        let (outH, top) = s.axis(s.height), (outW, left) = s.axis(s.width)
        var output: [Float] = []
        for oy in 0..<outH {
            for ox in 0..<outW { output += pixel(oy, ox, oy * s.stride - top, ox * s.stride - left) }
        }
        return output
    }
}
