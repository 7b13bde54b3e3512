/// A compact binary form of `Codable` values, for the stage cache: values in
/// the order `encode(to:)` writes them, without keys; integers as 8 bytes and
/// floats as their bits (little-endian), strings and arrays with a count, and
/// one presence byte before each `encodeIfPresent` value. `[Float]` is
/// written in one copy. About a hundred times faster than JSONEncoder on face
/// records, whose points were formatted one float at a time.
///
/// Decoding (``CompactDecoder``) replays the same sequence, so a type must
/// decode its fields in the order it encodes them — true of synthesized
/// conformances — and hold no dictionaries (they decode by key) and no
/// hand-made nested unkeyed containers (no count is written for them).
/// Not a format for other programs.
package enum CompactEncoder {
    package static func encode<T: Encodable>(_ value: T) throws -> [UInt8] {
        let sink = CompactSink()
        try sink.encode(value)
        return sink.bytes
    }
}

/// Types written with an element count first (so decoding knows where they end).
protocol CompactCounted {
    var compactCount: Int { get }
}

extension Array: CompactCounted {
    var compactCount: Int { count }
}

/// Optionals outside `encodeIfPresent` (array elements, single values) get a presence byte too.
protocol CompactOptional {
    var compactWrapped: (any Encodable)? { get }
}

extension Optional: CompactOptional where Wrapped: Encodable {
    var compactWrapped: (any Encodable)? { map { $0 } }
}

/// Values written in one step by the sink and read back in one by the
/// source: the scalars, and `[Float]` (a count and the bits in one copy).
protocol CompactScalar {
    func write(to sink: CompactSink)
    static func read(from source: CompactSource) throws -> Self
}

extension String: CompactScalar {
    func write(to sink: CompactSink) { sink.string(self) }
    static func read(from source: CompactSource) throws -> String { try source.string() }
}

extension Int: CompactScalar {
    func write(to sink: CompactSink) { sink.integer(self) }
    static func read(from source: CompactSource) throws -> Int { try source.integer(Int.self) }
}

extension Float: CompactScalar {
    func write(to sink: CompactSink) { sink.float(self) }
    static func read(from source: CompactSource) throws -> Float { try source.float() }
}

extension Double: CompactScalar {
    func write(to sink: CompactSink) { sink.double(self) }
    static func read(from source: CompactSource) throws -> Double { try source.double() }
}

extension Bool: CompactScalar {
    func write(to sink: CompactSink) { sink.bool(self) }
    static func read(from source: CompactSource) throws -> Bool { try source.bool() }
}

extension Array: CompactScalar where Element == Float {
    func write(to sink: CompactSink) {
        sink.integer(count)
        for float in self { sink.float(float) }
    }

    static func read(from source: CompactSource) throws -> [Float] {
        let count = try source.count()
        var floats = [Float]()
        floats.reserveCapacity(count)
        for _ in 0..<count { floats.append(try source.float()) }
        return floats
    }
}

/// Dictionaries decode through their keys, which this format does not keep.
protocol CompactUnsupported {}

extension Dictionary: CompactUnsupported {}

/// The byte buffer every container of one encoding appends to.
final class CompactSink {
    var bytes: [UInt8] = []

    init() { bytes.reserveCapacity(4096) }

    func integer<I: FixedWidthInteger>(_ value: I) {
        withUnsafeBytes(of: Int64(truncatingIfNeeded: value).littleEndian) { bytes.append(contentsOf: $0) }
    }

    func unsigned<I: FixedWidthInteger & UnsignedInteger>(_ value: I) {
        withUnsafeBytes(of: UInt64(truncatingIfNeeded: value).littleEndian) { bytes.append(contentsOf: $0) }
    }

    func float(_ value: Float) { withUnsafeBytes(of: value.bitPattern.littleEndian) { bytes.append(contentsOf: $0) } }
    func double(_ value: Double) { withUnsafeBytes(of: value.bitPattern.littleEndian) { bytes.append(contentsOf: $0) } }
    func bool(_ value: Bool) { bytes.append(value ? 1 : 0) }

    func string(_ value: String) {
        var value = value
        value.withUTF8 { utf8 in
            integer(utf8.count)
            bytes.append(contentsOf: utf8)
        }
    }

    /// Dispatches on the static type `T` (what the decoder sees): a value
    /// is written as a scalar, an optional or a counted collection only when
    /// its declared type is one, never because a dynamic cast would unwrap
    /// an optional or convert an array.
    func encode<T: Encodable>(_ value: T) throws {
        if T.self is any CompactScalar.Type, let scalar = value as? any CompactScalar {
            scalar.write(to: self)
        } else if T.self is any CompactOptional.Type, let optional = value as? any CompactOptional {
            try encodeIfPresent(optional.compactWrapped)
        } else if T.self is any CompactUnsupported.Type {
            throw EncodingError.invalidValue(value, .init(codingPath: [], debugDescription: "CompactEncoder cannot store \(T.self)"))
        } else {
            if T.self is any CompactCounted.Type, let counted = value as? any CompactCounted { integer(counted.compactCount) }
            try value.encode(to: CompactEncoding(sink: self, codingPath: []))
        }
    }

    private func encodeIfPresent(_ value: (any Encodable)?) throws {
        guard let value else { bytes.append(0); return }
        bytes.append(1)
        try encode(value)
    }

    func encodeIfPresent<T: Encodable>(_ value: T?) throws {
        guard let value else { bytes.append(0); return }
        bytes.append(1)
        try encode(value)
    }
}

struct CompactEncoding: Encoder {
    let sink: CompactSink
    var codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(CompactKeyedEncoding<Key>(sink: sink, codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer { CompactUnkeyedEncoding(sink: sink, codingPath: codingPath) }
    func singleValueContainer() -> any SingleValueEncodingContainer { CompactSingleValueEncoding(sink: sink, codingPath: codingPath) }
}

struct CompactKeyedEncoding<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let sink: CompactSink
    var codingPath: [any CodingKey]

    mutating func encodeNil(forKey key: Key) throws { sink.bytes.append(0) }
    mutating func encode(_ value: Bool, forKey key: Key) throws { sink.bool(value) }
    mutating func encode(_ value: String, forKey key: Key) throws { sink.string(value) }
    mutating func encode(_ value: Double, forKey key: Key) throws { sink.double(value) }
    mutating func encode(_ value: Float, forKey key: Key) throws { sink.float(value) }
    mutating func encode(_ value: Int, forKey key: Key) throws { sink.integer(value) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { sink.integer(value) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { sink.integer(value) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { sink.integer(value) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { sink.integer(value) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { sink.unsigned(value) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { sink.unsigned(value) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { sink.unsigned(value) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { sink.unsigned(value) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { sink.unsigned(value) }
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws { try sink.encode(value) }

    // A presence byte, then the value: the decoder reads it in `decodeNil(forKey:)`.
    mutating func encodeIfPresent(_ value: Bool?, forKey key: Key) throws { try sink.encodeIfPresent(value) }
    mutating func encodeIfPresent(_ value: String?, forKey key: Key) throws { try sink.encodeIfPresent(value) }
    mutating func encodeIfPresent(_ value: Double?, forKey key: Key) throws { try sink.encodeIfPresent(value) }
    mutating func encodeIfPresent(_ value: Float?, forKey key: Key) throws { try sink.encodeIfPresent(value) }
    mutating func encodeIfPresent(_ value: Int?, forKey key: Key) throws { try sink.encodeIfPresent(value) }
    mutating func encodeIfPresent(_ value: Int8?, forKey key: Key) throws { try sink.encodeIfPresent(value) }
    mutating func encodeIfPresent(_ value: Int16?, forKey key: Key) throws { try sink.encodeIfPresent(value) }
    mutating func encodeIfPresent(_ value: Int32?, forKey key: Key) throws { try sink.encodeIfPresent(value) }
    mutating func encodeIfPresent(_ value: Int64?, forKey key: Key) throws { try sink.encodeIfPresent(value) }
    mutating func encodeIfPresent(_ value: UInt?, forKey key: Key) throws { try sink.encodeIfPresent(value) }
    mutating func encodeIfPresent(_ value: UInt8?, forKey key: Key) throws { try sink.encodeIfPresent(value) }
    mutating func encodeIfPresent(_ value: UInt16?, forKey key: Key) throws { try sink.encodeIfPresent(value) }
    mutating func encodeIfPresent(_ value: UInt32?, forKey key: Key) throws { try sink.encodeIfPresent(value) }
    mutating func encodeIfPresent(_ value: UInt64?, forKey key: Key) throws { try sink.encodeIfPresent(value) }
    mutating func encodeIfPresent<T: Encodable>(_ value: T?, forKey key: Key) throws { try sink.encodeIfPresent(value) }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        KeyedEncodingContainer(CompactKeyedEncoding<NestedKey>(sink: sink, codingPath: codingPath + [key]))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        CompactUnkeyedEncoding(sink: sink, codingPath: codingPath + [key])
    }

    mutating func superEncoder() -> any Encoder { CompactEncoding(sink: sink, codingPath: codingPath) }
    mutating func superEncoder(forKey key: Key) -> any Encoder { CompactEncoding(sink: sink, codingPath: codingPath + [key]) }
}

/// An unkeyed container: values one after another (the array's count was
/// written by whoever encoded the array).
struct CompactUnkeyedEncoding: UnkeyedEncodingContainer {
    let sink: CompactSink
    var codingPath: [any CodingKey]
    private(set) var count = 0

    init(sink: CompactSink, codingPath: [any CodingKey]) {
        self.sink = sink
        self.codingPath = codingPath
    }

    mutating func encodeNil() throws { sink.bytes.append(0); count += 1 }
    mutating func encode(_ value: Bool) throws { sink.bool(value); count += 1 }
    mutating func encode(_ value: String) throws { sink.string(value); count += 1 }
    mutating func encode(_ value: Double) throws { sink.double(value); count += 1 }
    mutating func encode(_ value: Float) throws { sink.float(value); count += 1 }
    mutating func encode(_ value: Int) throws { sink.integer(value); count += 1 }
    mutating func encode(_ value: Int8) throws { sink.integer(value); count += 1 }
    mutating func encode(_ value: Int16) throws { sink.integer(value); count += 1 }
    mutating func encode(_ value: Int32) throws { sink.integer(value); count += 1 }
    mutating func encode(_ value: Int64) throws { sink.integer(value); count += 1 }
    mutating func encode(_ value: UInt) throws { sink.unsigned(value); count += 1 }
    mutating func encode(_ value: UInt8) throws { sink.unsigned(value); count += 1 }
    mutating func encode(_ value: UInt16) throws { sink.unsigned(value); count += 1 }
    mutating func encode(_ value: UInt32) throws { sink.unsigned(value); count += 1 }
    mutating func encode(_ value: UInt64) throws { sink.unsigned(value); count += 1 }
    mutating func encode<T: Encodable>(_ value: T) throws { try sink.encode(value); count += 1 }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        count += 1
        return KeyedEncodingContainer(CompactKeyedEncoding<NestedKey>(sink: sink, codingPath: codingPath))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        count += 1
        return CompactUnkeyedEncoding(sink: sink, codingPath: codingPath)
    }

    mutating func superEncoder() -> any Encoder { CompactEncoding(sink: sink, codingPath: codingPath) }
}

/// One value. `encodeNil` writes nothing: the presence byte of an optional
/// was written before `Optional.encode(to:)` ran.
struct CompactSingleValueEncoding: SingleValueEncodingContainer {
    let sink: CompactSink
    var codingPath: [any CodingKey]

    mutating func encodeNil() throws {}
    mutating func encode(_ value: Bool) throws { sink.bool(value) }
    mutating func encode(_ value: String) throws { sink.string(value) }
    mutating func encode(_ value: Double) throws { sink.double(value) }
    mutating func encode(_ value: Float) throws { sink.float(value) }
    mutating func encode(_ value: Int) throws { sink.integer(value) }
    mutating func encode(_ value: Int8) throws { sink.integer(value) }
    mutating func encode(_ value: Int16) throws { sink.integer(value) }
    mutating func encode(_ value: Int32) throws { sink.integer(value) }
    mutating func encode(_ value: Int64) throws { sink.integer(value) }
    mutating func encode(_ value: UInt) throws { sink.unsigned(value) }
    mutating func encode(_ value: UInt8) throws { sink.unsigned(value) }
    mutating func encode(_ value: UInt16) throws { sink.unsigned(value) }
    mutating func encode(_ value: UInt32) throws { sink.unsigned(value) }
    mutating func encode(_ value: UInt64) throws { sink.unsigned(value) }
    mutating func encode<T: Encodable>(_ value: T) throws { try sink.encode(value) }
}
