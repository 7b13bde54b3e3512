import Inference

/// The int8 first convolution written out from its definition
/// (`Int8ConvolutionWeights`): per output, A = Σ q·p and Q = Σ q over the
/// taps inside the input, then `clamp(fma(s/2, 2A − 255Q, b))`. Every
/// `Int8ConvolutionKernel` must match it bit for bit.
enum Int8Reference {
    /// `pixels` H×W×I bytes, `weights` TFLite's `[O][K][K][I]` floats.
    static func convolution(_ pixels: [UInt8], _ s: WindowReference.Shape, inChannels: Int, weights: [Float], bias: [Float],
                            activation: Int8) -> [Float] {
        let outC = bias.count, taps = s.kernel * s.kernel * inChannels
        let (quantized, halfScales) = Int8ConvolutionWeights.quantize(weights, outChannels: outC)
        let (outH, top) = s.axis(s.height), (outW, left) = s.axis(s.width)
        var output: [Float] = []
        for oy in 0..<outH {
            for ox in 0..<outW {
                let iy0 = oy * s.stride - top, ix0 = ox * s.stride - left
                for o in 0..<outC {
                    var a = 0, q = 0
                    for ky in 0..<s.kernel where (0..<s.height).contains(iy0 + ky) {
                        for kx in 0..<s.kernel where (0..<s.width).contains(ix0 + kx) {
                            for i in 0..<inChannels {
                                let w = Int(quantized[o][(ky * s.kernel + kx) * inChannels + i])
                                a += w * Int(pixels[((iy0 + ky) * s.width + ix0 + kx) * inChannels + i])
                                q += w
                            }
                        }
                    }
                    precondition(quantized[o].count == taps)
                    let value = bias[o].addingProduct(halfScales[o], Float(2 * a - 255 * q))
                    output.append(clamp(value, activation))
                }
            }
        }
        return output
    }

    /// The kernels' clamp: `y > lower ? y : lower`, then `y < upper ? y : upper`
    /// (so −0 becomes +0 under ReLU, as `vmaxps` gives).
    static func clamp(_ value: Float, _ activation: Int8) -> Float {
        let (lower, upper): (Float, Float) = switch activation {
        case 1: (0, .infinity)
        case 3: (0, 6)
        default: (-.infinity, .infinity)
        }
        let raised = value > lower ? value : lower
        return raised < upper ? raised : upper
    }
}
