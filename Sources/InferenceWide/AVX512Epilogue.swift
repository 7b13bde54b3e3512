/// What the wide kernels do with each accumulated 16-lane vector, mirroring
/// `Inference`'s epilogues: `second(first(acc + bias) + residual)`, stored.
public enum WideActivation {
    case none
    case relu
    case relu6
    /// Per-channel slopes, readable 16 floats past the last channel.
    case prelu(UnsafePointer<Float>)
}

protocol WideActivationFunction {
    func callAsFunction(_ value: SIMD16<Float>, channel: Int) -> SIMD16<Float>
}

struct WideIdentity: WideActivationFunction {
    @inline(__always) func callAsFunction(_ value: SIMD16<Float>, channel: Int) -> SIMD16<Float> { value }
}

struct WideReLU: WideActivationFunction {
    @inline(__always) func callAsFunction(_ value: SIMD16<Float>, channel: Int) -> SIMD16<Float> {
        value.replacing(with: SIMD16<Float>.zero, where: value .< SIMD16<Float>.zero)
    }
}

struct WideReLU6: WideActivationFunction {
    @inline(__always) func callAsFunction(_ value: SIMD16<Float>, channel: Int) -> SIMD16<Float> {
        let positive = value.replacing(with: SIMD16<Float>.zero, where: value .< SIMD16<Float>.zero)
        return positive.replacing(with: SIMD16(repeating: 6), where: positive .> SIMD16(repeating: 6))
    }
}

struct WidePReLU: WideActivationFunction {
    let alpha: UnsafePointer<Float>
    @inline(__always) func callAsFunction(_ value: SIMD16<Float>, channel: Int) -> SIMD16<Float> {
        value.replacing(with: value * WideVector.load(alpha + channel), where: value .< SIMD16<Float>.zero)
    }
}

protocol WideOutputEpilogue {
    /// `element` = `pixel` · output channels + `channel`.
    func store(_ accumulator: SIMD16<Float>, channel: Int, lanes: Int, element: Int, pixel: Int)
}

struct WideBiasEpilogue<First: WideActivationFunction>: WideOutputEpilogue {
    let bias: UnsafePointer<Float>
    let output: UnsafeMutablePointer<Float>
    let first: First
    @inline(__always) func store(_ accumulator: SIMD16<Float>, channel: Int, lanes: Int, element: Int, pixel: Int) {
        WideVector.store(first(accumulator + WideVector.load(bias + channel), channel: channel), output + element, lanes: lanes)
    }
}

struct WideResidualEpilogue<First: WideActivationFunction, Second: WideActivationFunction>: WideOutputEpilogue {
    let bias: UnsafePointer<Float>
    let output: UnsafeMutablePointer<Float>
    let residual: UnsafePointer<Float>
    let first: First
    let second: Second
    @inline(__always) func store(_ accumulator: SIMD16<Float>, channel: Int, lanes: Int, element: Int, pixel: Int) {
        let value = first(accumulator + WideVector.load(bias + channel), channel: channel) + WideVector.load(residual + element)
        WideVector.store(second(value, channel: channel), output + element, lanes: lanes)
    }
}

/// A residual with fewer channels than the output (a folded channel PAD):
/// `residual[pixel][channel]` where `channel < residualChannels`, zero
/// beyond — the same sums as adding the zero-padded tensor.
struct WideNarrowResidualEpilogue<First: WideActivationFunction, Second: WideActivationFunction>: WideOutputEpilogue {
    let bias: UnsafePointer<Float>
    let output: UnsafeMutablePointer<Float>
    let residual: UnsafePointer<Float>
    let residualChannels: Int
    let first: First
    let second: Second
    /// All-ones in the lanes of the block holding the last residual channel that hold residual channels.
    private let tailMask: SIMD16<UInt32>

    init(bias: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>, residual: UnsafePointer<Float>,
         residualChannels: Int, first: First, second: Second) {
        self.bias = bias; self.output = output; self.residual = residual
        self.residualChannels = residualChannels; self.first = first; self.second = second
        var mask = SIMD16<UInt32>.zero
        for lane in 0..<(residualChannels % 16) { mask[lane] = .max }
        tailMask = mask
    }

    @inline(__always) func store(_ accumulator: SIMD16<Float>, channel: Int, lanes: Int, element: Int, pixel: Int) {
        let available = residualChannels - channel
        var added = SIMD16<Float>.zero
        if available >= 16 {
            added = WideVector.load(residual + pixel * residualChannels + channel)
        } else if available > 0 {
            // A bit mask, not a multiply: the lanes past the residual's channels may hold any bits.
            let bits = unsafeBitCast(WideVector.load(residual + pixel * residualChannels + channel), to: SIMD16<UInt32>.self)
            added = unsafeBitCast(bits & tailMask, to: SIMD16<Float>.self)
        }
        let value = first(accumulator + WideVector.load(bias + channel), channel: channel) + added
        WideVector.store(second(value, channel: channel), output + element, lanes: lanes)
    }
}

/// A kernel run that takes its epilogue as a generic parameter.
protocol WideEpilogueConsumer {
    func run<E: WideOutputEpilogue>(_ epilogue: E)
}

extension WideActivation {
    /// Runs `consumer` with the epilogue these activations, `bias` and `residual` make,
    /// resolved to concrete types once per call.
    static func withEpilogue<C: WideEpilogueConsumer>(
        first: WideActivation, second: WideActivation, bias: UnsafePointer<Float>,
        residual: UnsafePointer<Float>?, residualChannels: Int, outputChannels: Int,
        output: UnsafeMutablePointer<Float>, _ consumer: C
    ) {
        let narrow = residualChannels < outputChannels ? residualChannels : nil
        switch first {
        case .none: withSecond(WideIdentity(), second, bias, residual, narrow, output, consumer)
        case .relu: withSecond(WideReLU(), second, bias, residual, narrow, output, consumer)
        case .relu6: withSecond(WideReLU6(), second, bias, residual, narrow, output, consumer)
        case let .prelu(alpha): withSecond(WidePReLU(alpha: alpha), second, bias, residual, narrow, output, consumer)
        }
    }

    private static func withSecond<F: WideActivationFunction, C: WideEpilogueConsumer>(
        _ first: F, _ second: WideActivation, _ bias: UnsafePointer<Float>,
        _ residual: UnsafePointer<Float>?, _ narrow: Int?, _ output: UnsafeMutablePointer<Float>, _ consumer: C
    ) {
        guard let residual else {
            consumer.run(WideBiasEpilogue(bias: bias, output: output, first: first))
            return
        }
        if let narrow {
            // The planner folds a PAD only before none or ReLU (BlazeFace's skip connections).
            switch second {
            case .none:
                consumer.run(WideNarrowResidualEpilogue(bias: bias, output: output, residual: residual, residualChannels: narrow,
                                                        first: first, second: WideIdentity()))
            case .relu:
                consumer.run(WideNarrowResidualEpilogue(bias: bias, output: output, residual: residual, residualChannels: narrow,
                                                        first: first, second: WideReLU()))
            case .relu6, .prelu:
                preconditionFailure("a narrow residual is only planned before no activation or ReLU")
            }
            return
        }
        switch second {
        case .none: consumer.run(WideResidualEpilogue(bias: bias, output: output, residual: residual, first: first, second: WideIdentity()))
        case .relu: consumer.run(WideResidualEpilogue(bias: bias, output: output, residual: residual, first: first, second: WideReLU()))
        case .relu6: consumer.run(WideResidualEpilogue(bias: bias, output: output, residual: residual, first: first, second: WideReLU6()))
        case let .prelu(alpha):
            consumer.run(WideResidualEpilogue(bias: bias, output: output, residual: residual, first: first, second: WidePReLU(alpha: alpha)))
        }
    }
}
