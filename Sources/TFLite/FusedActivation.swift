/// `ActivationFunctionType` fused into an operator.
public enum FusedActivation: Int8, Sendable, CustomStringConvertible {
    case none = 0, relu = 1, reluN1To1 = 2, relu6 = 3, tanh = 4, signBit = 5

    public var description: String {
        switch self {
        case .none: "NONE"
        case .relu: "RELU"
        case .reluN1To1: "RELU_N1_TO_1"
        case .relu6: "RELU6"
        case .tanh: "TANH"
        case .signBit: "SIGN_BIT"
        }
    }
}

/// `Padding` of convolutions and pools.
public enum Padding: Int8, Sendable, CustomStringConvertible {
    case same = 0, valid = 1
    public var description: String { self == .same ? "SAME" : "VALID" }
}
