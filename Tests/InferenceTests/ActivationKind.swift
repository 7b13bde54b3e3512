import InferenceWide

/// The activations the AVX-512 kernel tests run, with the scalar reference
/// each output is compared with bit for bit.
enum ActivationKind: String, CaseIterable {
    case none, relu, relu6, prelu

    /// The kernel's activation; `.prelu` reads its slopes from `slopes`.
    func avx512(slopes: UnsafePointer<Float>) -> AVX512Activation {
        switch self {
        case .none: .none
        case .relu: .relu
        case .relu6: .relu6
        case .prelu: .prelu(slopes)
        }
    }

    /// `value` (a sum plus its bias) activated as the kernels do.
    func reference(_ value: Float, slope: Float) -> Float {
        switch self {
        case .none: value
        case .relu: value < 0 ? 0 : value
        case .relu6: value < 0 ? 0 : (value > 6 ? 6 : value)
        case .prelu: value < 0 ? value * slope : value
        }
    }
}
