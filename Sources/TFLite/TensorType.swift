/// TFLite schema `TensorType` values (schema v3).
public enum TensorType: Int8, Sendable, CustomStringConvertible {
    case float32 = 0, float16 = 1, int32 = 2, uint8 = 3, int64 = 4, string = 5, bool = 6,
         int16 = 7, complex64 = 8, int8 = 9, float64 = 10, complex128 = 11, uint64 = 12,
         resource = 13, variant = 14, uint32 = 15, uint16 = 16, int4 = 17

    public var description: String { String(describing: self).uppercased() }
}
