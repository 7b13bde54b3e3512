/// What the AVX-512 micro-kernels do with each accumulated 16-lane vector, mirroring
/// `Inference`'s epilogues: `second(first(acc + bias) + residual)`, stored.
public enum AVX512Activation {
    case none
    case relu
    case relu6
    /// Per-channel slopes, readable 16 floats past the last channel.
    case prelu(UnsafePointer<Float>)
}

protocol AVX512ActivationFunction {
    func callAsFunction(_ value: SIMD16<Float>, channel: Int) -> SIMD16<Float>
}

struct AVX512Identity: AVX512ActivationFunction {
    @inline(__always) func callAsFunction(_ value: SIMD16<Float>, channel: Int) -> SIMD16<Float> { value }
}

struct AVX512ReLU: AVX512ActivationFunction {
    @inline(__always) func callAsFunction(_ value: SIMD16<Float>, channel: Int) -> SIMD16<Float> {
        value.replacing(with: SIMD16<Float>.zero, where: value .< SIMD16<Float>.zero)
    }
}

struct AVX512ReLU6: AVX512ActivationFunction {
    @inline(__always) func callAsFunction(_ value: SIMD16<Float>, channel: Int) -> SIMD16<Float> {
        let positive = value.replacing(with: SIMD16<Float>.zero, where: value .< SIMD16<Float>.zero)
        return positive.replacing(with: SIMD16(repeating: 6), where: positive .> SIMD16(repeating: 6))
    }
}

struct AVX512PReLU: AVX512ActivationFunction {
    let alpha: UnsafePointer<Float>
    @inline(__always) func callAsFunction(_ value: SIMD16<Float>, channel: Int) -> SIMD16<Float> {
        value.replacing(with: value * AVX512Vector.load(alpha + channel), where: value .< SIMD16<Float>.zero)
    }
}

protocol AVX512OutputEpilogue {
    /// `element` = `pixel` · output channels + `channel`.
    func store(_ accumulator: SIMD16<Float>, channel: Int, lanes: Int, element: Int, pixel: Int)
}

struct AVX512BiasEpilogue<First: AVX512ActivationFunction>: AVX512OutputEpilogue {
    let bias: UnsafePointer<Float>
    let output: UnsafeMutablePointer<Float>
    let first: First
    @inline(__always) func store(_ accumulator: SIMD16<Float>, channel: Int, lanes: Int, element: Int, pixel: Int) {
        AVX512Vector.store(first(accumulator + AVX512Vector.load(bias + channel), channel: channel), output + element, lanes: lanes)
    }
}

struct AVX512ResidualEpilogue<First: AVX512ActivationFunction, Second: AVX512ActivationFunction>: AVX512OutputEpilogue {
    let bias: UnsafePointer<Float>
    let output: UnsafeMutablePointer<Float>
    let residual: UnsafePointer<Float>
    let first: First
    let second: Second
    @inline(__always) func store(_ accumulator: SIMD16<Float>, channel: Int, lanes: Int, element: Int, pixel: Int) {
        let value = first(accumulator + AVX512Vector.load(bias + channel), channel: channel) + AVX512Vector.load(residual + element)
        AVX512Vector.store(second(value, channel: channel), output + element, lanes: lanes)
    }
}

/// A residual with fewer channels than the output (a folded channel PAD):
/// `residual[pixel][channel]` where `channel < residualChannels`, zero
/// beyond — the same sums as adding the zero-padded tensor.
struct AVX512NarrowResidualEpilogue<First: AVX512ActivationFunction, Second: AVX512ActivationFunction>: AVX512OutputEpilogue {
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
            added = AVX512Vector.load(residual + pixel * residualChannels + channel)
        } else if available > 0 {
            // A bit mask, not a multiply: the lanes past the residual's channels may hold any bits.
            let bits = unsafeBitCast(AVX512Vector.load(residual + pixel * residualChannels + channel), to: SIMD16<UInt32>.self)
            added = unsafeBitCast(bits & tailMask, to: SIMD16<Float>.self)
        }
        let value = first(accumulator + AVX512Vector.load(bias + channel), channel: channel) + added
        AVX512Vector.store(second(value, channel: channel), output + element, lanes: lanes)
    }
}

/// A kernel run that takes its epilogue as a generic parameter.
protocol AVX512EpilogueConsumer {
    func run<E: AVX512OutputEpilogue>(_ epilogue: E)
}

extension AVX512Activation {
    /// Runs `consumer` with the epilogue these activations, `bias` and `residual` make,
    /// resolved to concrete types once per call.
    static func withEpilogue<C: AVX512EpilogueConsumer>(
        first: AVX512Activation, second: AVX512Activation, bias: UnsafePointer<Float>,
        residual: UnsafePointer<Float>?, residualChannels: Int, outputChannels: Int,
        output: UnsafeMutablePointer<Float>, _ consumer: C
    ) {
        let narrow = residualChannels < outputChannels ? residualChannels : nil
        switch first {
        case .none: withSecond(AVX512Identity(), second, bias, residual, narrow, output, consumer)
        case .relu: withSecond(AVX512ReLU(), second, bias, residual, narrow, output, consumer)
        case .relu6: withSecond(AVX512ReLU6(), second, bias, residual, narrow, output, consumer)
        case let .prelu(alpha): withSecond(AVX512PReLU(alpha: alpha), second, bias, residual, narrow, output, consumer)
        }
    }

    private static func withSecond<F: AVX512ActivationFunction, C: AVX512EpilogueConsumer>(
        _ first: F, _ second: AVX512Activation, _ bias: UnsafePointer<Float>,
        _ residual: UnsafePointer<Float>?, _ narrow: Int?, _ output: UnsafeMutablePointer<Float>, _ consumer: C
    ) {
        guard let residual else {
            consumer.run(AVX512BiasEpilogue(bias: bias, output: output, first: first))
            return
        }
        if let narrow {
            // The planner folds a PAD only before none or ReLU (BlazeFace's skip connections).
            switch second {
            case .none:
                consumer.run(AVX512NarrowResidualEpilogue(bias: bias, output: output, residual: residual, residualChannels: narrow,
                                                        first: first, second: AVX512Identity()))
            case .relu:
                consumer.run(AVX512NarrowResidualEpilogue(bias: bias, output: output, residual: residual, residualChannels: narrow,
                                                        first: first, second: AVX512ReLU()))
            case .relu6, .prelu:
                preconditionFailure("a narrow residual is only planned before no activation or ReLU")
            }
            return
        }
        switch second {
        case .none: consumer.run(AVX512ResidualEpilogue(bias: bias, output: output, residual: residual, first: first, second: AVX512Identity()))
        case .relu: consumer.run(AVX512ResidualEpilogue(bias: bias, output: output, residual: residual, first: first, second: AVX512ReLU()))
        case .relu6: consumer.run(AVX512ResidualEpilogue(bias: bias, output: output, residual: residual, first: first, second: AVX512ReLU6()))
        case let .prelu(alpha):
            consumer.run(AVX512ResidualEpilogue(bias: bias, output: output, residual: residual, first: first, second: AVX512PReLU(alpha: alpha)))
        }
    }
}
