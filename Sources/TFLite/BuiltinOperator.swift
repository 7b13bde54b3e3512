/// A TFLite builtin operator code (schema v3 `BuiltinOperator`).
///
/// A struct over the raw value rather than an enum, so a file that names an
/// operator this reader does not know still parses, and the engine can report
/// the operator by name or number.
public struct BuiltinOperator: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: Int32
    public init(rawValue: Int32) { self.rawValue = rawValue }

    public static let add = Self(rawValue: 0)
    public static let averagePool2D = Self(rawValue: 1)
    public static let concatenation = Self(rawValue: 2)
    public static let conv2D = Self(rawValue: 3)
    public static let depthwiseConv2D = Self(rawValue: 4)
    public static let depthToSpace = Self(rawValue: 5)
    public static let dequantize = Self(rawValue: 6)
    public static let fullyConnected = Self(rawValue: 9)
    public static let logistic = Self(rawValue: 14)
    public static let maxPool2D = Self(rawValue: 17)
    public static let mul = Self(rawValue: 18)
    public static let relu = Self(rawValue: 19)
    public static let relu6 = Self(rawValue: 21)
    public static let reshape = Self(rawValue: 22)
    public static let resizeBilinear = Self(rawValue: 23)
    public static let softmax = Self(rawValue: 25)
    public static let tanh = Self(rawValue: 28)
    public static let pad = Self(rawValue: 34)
    public static let prelu = Self(rawValue: 54)
    public static let resizeNearestNeighbor = Self(rawValue: 97)
    public static let densify = Self(rawValue: 124)
    /// `custom_code` operators.
    public static let custom = Self(rawValue: 32)

    private static let names: [Int32: String] = [
        0: "ADD", 1: "AVERAGE_POOL_2D", 2: "CONCATENATION", 3: "CONV_2D", 4: "DEPTHWISE_CONV_2D",
        5: "DEPTH_TO_SPACE", 6: "DEQUANTIZE", 7: "EMBEDDING_LOOKUP", 8: "FLOOR", 9: "FULLY_CONNECTED",
        10: "HASHTABLE_LOOKUP", 11: "L2_NORMALIZATION", 12: "L2_POOL_2D", 13: "LOCAL_RESPONSE_NORMALIZATION",
        14: "LOGISTIC", 15: "LSH_PROJECTION", 16: "LSTM", 17: "MAX_POOL_2D", 18: "MUL", 19: "RELU",
        20: "RELU_N1_TO_1", 21: "RELU6", 22: "RESHAPE", 23: "RESIZE_BILINEAR", 24: "RNN", 25: "SOFTMAX",
        26: "SPACE_TO_DEPTH", 27: "SVDF", 28: "TANH", 32: "CUSTOM", 34: "PAD", 39: "TRANSPOSE", 40: "MEAN",
        41: "SUB", 42: "DIV", 43: "SQUEEZE", 45: "STRIDED_SLICE", 49: "EXP", 53: "CAST", 54: "PRELU",
        55: "MAXIMUM", 56: "ARG_MAX", 57: "MINIMUM", 60: "PADV2", 65: "SLICE", 67: "TRANSPOSE_CONV",
        77: "SHAPE", 83: "PACK", 88: "UNPACK", 97: "RESIZE_NEAREST_NEIGHBOR", 98: "LEAKY_RELU",
        99: "SQUARED_DIFFERENCE", 102: "SPLIT_V", 114: "QUANTIZE", 117: "HARD_SWISH", 124: "DENSIFY",
        126: "BATCH_MATMUL",
    ]

    /// The schema's name, e.g. `CONV_2D`, or `BUILTIN_<n>` for codes this reader does not name.
    public var name: String { Self.names[rawValue] ?? "BUILTIN_\(rawValue)" }
    public var description: String { name }
}
