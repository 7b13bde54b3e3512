/// TFLite schema `TensorType` values (schema v3).
public enum TensorType: Int8, Sendable, CustomStringConvertible {
    case float32 = 0, float16 = 1, int32 = 2, uint8 = 3, int64 = 4, string = 5, bool = 6,
         int16 = 7, complex64 = 8, int8 = 9, float64 = 10, complex128 = 11, uint64 = 12,
         resource = 13, variant = 14, uint32 = 15, uint16 = 16, int4 = 17

    /// The schema's name, e.g. `FLOAT32`.
    public var description: String {
        switch self {
        case .float32: "FLOAT32"
        case .float16: "FLOAT16"
        case .int32: "INT32"
        case .uint8: "UINT8"
        case .int64: "INT64"
        case .string: "STRING"
        case .bool: "BOOL"
        case .int16: "INT16"
        case .complex64: "COMPLEX64"
        case .int8: "INT8"
        case .float64: "FLOAT64"
        case .complex128: "COMPLEX128"
        case .uint64: "UINT64"
        case .resource: "RESOURCE"
        case .variant: "VARIANT"
        case .uint32: "UINT32"
        case .uint16: "UINT16"
        case .int4: "INT4"
        }
    }
}
