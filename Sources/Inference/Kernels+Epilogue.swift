/// Per-vector activations, specialized into each kernel (no per-vector switch).
protocol VectorActivation {
    func callAsFunction(_ value: SIMD8<Float>, channel: Int) -> SIMD8<Float>
}

struct IdentityActivation: VectorActivation {
    @inline(__always) func callAsFunction(_ value: SIMD8<Float>, channel: Int) -> SIMD8<Float> { value }
}

struct ReLUActivation: VectorActivation {
    @inline(__always) func callAsFunction(_ value: SIMD8<Float>, channel: Int) -> SIMD8<Float> {
        value.replacing(with: SIMD8<Float>.zero, where: value .< SIMD8<Float>.zero)
    }
}

struct ReLU6Activation: VectorActivation {
    @inline(__always) func callAsFunction(_ value: SIMD8<Float>, channel: Int) -> SIMD8<Float> {
        let positive = value.replacing(with: SIMD8<Float>.zero, where: value .< SIMD8<Float>.zero)
        return positive.replacing(with: SIMD8(repeating: 6), where: positive .> SIMD8(repeating: 6))
    }
}

struct PReLUActivation: VectorActivation {
    /// Slopes padded to a multiple of 8.
    let alpha: UnsafePointer<Float>
    @inline(__always) func callAsFunction(_ value: SIMD8<Float>, channel: Int) -> SIMD8<Float> {
        value.replacing(with: value * Kernels.load(alpha + channel), where: value .< SIMD8<Float>.zero)
    }
}

/// What a convolution kernel does with each accumulated vector: add bias, activate,
/// maybe add a residual and activate again, store.
protocol OutputEpilogue {
    func store(_ accumulator: SIMD8<Float>, channel: Int, lanes: Int, element: Int)
}

struct BiasEpilogue<First: VectorActivation>: OutputEpilogue {
    let bias: UnsafePointer<Float>
    let output: UnsafeMutablePointer<Float>
    let first: First
    @inline(__always) func store(_ accumulator: SIMD8<Float>, channel: Int, lanes: Int, element: Int) {
        Kernels.store(first(accumulator + Kernels.load(bias + channel), channel: channel), output + element, lanes: lanes)
    }
}

struct ResidualEpilogue<First: VectorActivation, Second: VectorActivation>: OutputEpilogue {
    let bias: UnsafePointer<Float>
    let output: UnsafeMutablePointer<Float>
    let residual: UnsafePointer<Float>
    let first: First
    let second: Second
    @inline(__always) func store(_ accumulator: SIMD8<Float>, channel: Int, lanes: Int, element: Int) {
        let value = first(accumulator + Kernels.load(bias + channel), channel: channel) + Kernels.load(residual + element)
        Kernels.store(second(value, channel: channel), output + element, lanes: lanes)
    }
}

/// A kernel run that takes its epilogue as a generic parameter.
protocol EpilogueConsumer {
    func run<E: OutputEpilogue>(_ epilogue: E)
}

extension Kernels {
    /// Resolves `epilogue` to a concrete `OutputEpilogue` type once per step and runs `consumer` with it.
    static func withEpilogue<C: EpilogueConsumer>(
        _ epilogue: Epilogue, output: UnsafeMutablePointer<Float>, arena: UnsafeMutablePointer<Float>,
        constants: UnsafePointer<Float>, _ consumer: C
    ) {
        switch epilogue.first {
        case .none: withSecond(epilogue, IdentityActivation(), output: output, arena: arena, constants: constants, consumer)
        case .relu: withSecond(epilogue, ReLUActivation(), output: output, arena: arena, constants: constants, consumer)
        case .relu6: withSecond(epilogue, ReLU6Activation(), output: output, arena: arena, constants: constants, consumer)
        case let .prelu(alpha): withSecond(epilogue, PReLUActivation(alpha: constants + alpha), output: output, arena: arena, constants: constants, consumer)
        }
    }

    private static func withSecond<A: VectorActivation, C: EpilogueConsumer>(
        _ epilogue: Epilogue, _ first: A, output: UnsafeMutablePointer<Float>, arena: UnsafeMutablePointer<Float>,
        constants: UnsafePointer<Float>, _ consumer: C
    ) {
        let bias = constants + epilogue.bias
        guard let residualOffset = epilogue.residual else {
            consumer.run(BiasEpilogue(bias: bias, output: output, first: first))
            return
        }
        let residual = UnsafePointer(arena + residualOffset)
        switch epilogue.second {
        case .none: consumer.run(ResidualEpilogue(bias: bias, output: output, residual: residual, first: first, second: IdentityActivation()))
        case .relu: consumer.run(ResidualEpilogue(bias: bias, output: output, residual: residual, first: first, second: ReLUActivation()))
        case .relu6: consumer.run(ResidualEpilogue(bias: bias, output: output, residual: residual, first: first, second: ReLU6Activation()))
        case let .prelu(alpha):
            consumer.run(ResidualEpilogue(bias: bias, output: output, residual: residual, first: first, second: PReLUActivation(alpha: constants + alpha)))
        }
    }
}
