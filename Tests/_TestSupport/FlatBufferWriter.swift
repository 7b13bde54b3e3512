/// A minimal flatbuffer writer for hand-crafted (valid or hostile) TFLite files in tests.
///
/// Lays objects out front to back: a table's vtable, then the table (every field in a
/// 4-byte slot), then its children, whose offsets are patched in. Enough for schema
/// tables, scalars, vectors and strings; not a general flatbuffers implementation.
public indirect enum FlatValue: Sendable {
    case int8(Int8)
    case uint8(UInt8)
    case int32(Int32)
    case uint32(UInt32)
    /// A table: field id → value.
    case table([Int: FlatValue])
    case tables([FlatValue])
    case int32s([Int32])
    case bytes([UInt8])
    case string(String)
}

public struct FlatBufferWriter {
    public private(set) var bytes: [UInt8] = []

    public init() {}

    /// Serializes `root` (a `.table`) with the file identifier `identifier`.
    public static func serialize(_ root: FlatValue, identifier: String = "TFL3") -> [UInt8] {
        var writer = FlatBufferWriter()
        writer.bytes = [0, 0, 0, 0] + Array(identifier.utf8.prefix(4))
        let position = writer.emit(root)
        writer.patch(at: 0, UInt32(position))
        return writer.bytes
    }

    private mutating func align(_ alignment: Int) {
        while bytes.count % alignment != 0 { bytes.append(0) }
    }

    private mutating func append<T: FixedWidthInteger>(_ value: T) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    private mutating func patch(at position: Int, _ value: UInt32) {
        withUnsafeBytes(of: value.littleEndian) { raw in
            for k in 0..<4 { bytes[position + k] = raw[k] }
        }
    }

    /// Emits a non-scalar value and returns its position.
    private mutating func emit(_ value: FlatValue) -> Int {
        switch value {
        case let .table(fields):
            let maxField = (fields.keys.max() ?? -1) + 1
            align(4)
            let vtable = bytes.count
            append(UInt16(4 + 2 * maxField))
            append(UInt16(4 + 4 * fields.count))
            let ordered = fields.keys.sorted()
            for id in 0..<maxField {
                if let slot = ordered.firstIndex(of: id) { append(UInt16(4 + 4 * slot)) } else { append(UInt16(0)) }
            }
            align(4)
            let table = bytes.count
            append(Int32(table - vtable))
            var pending: [(slot: Int, child: FlatValue)] = []
            for id in ordered {
                let slot = bytes.count
                switch fields[id]! {
                case let .int8(v): append(v); bytes += [0, 0, 0]
                case let .uint8(v): append(v); bytes += [0, 0, 0]
                case let .int32(v): append(v)
                case let .uint32(v): append(v)
                case let child: append(UInt32(0)); pending.append((slot, child))
                }
            }
            for (slot, child) in pending {
                let position = emit(child)
                patch(at: slot, UInt32(position - slot))
            }
            return table
        case let .tables(items):
            align(4)
            let vector = bytes.count
            append(UInt32(items.count))
            let first = bytes.count
            for _ in items { append(UInt32(0)) }
            for (k, item) in items.enumerated() {
                let position = emit(item)
                patch(at: first + 4 * k, UInt32(position - (first + 4 * k)))
            }
            return vector
        case let .int32s(values):
            align(4)
            let vector = bytes.count
            append(UInt32(values.count))
            for v in values { append(v) }
            return vector
        case let .bytes(values):
            align(16)
            bytes += [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]
            let vector = bytes.count
            append(UInt32(values.count))
            bytes += values
            return vector
        case let .string(text):
            align(4)
            let vector = bytes.count
            append(UInt32(text.utf8.count))
            bytes += Array(text.utf8) + [0]
            return vector
        case .int8, .uint8, .int32, .uint32:
            preconditionFailure("scalars are stored inline in tables")
        }
    }
}
