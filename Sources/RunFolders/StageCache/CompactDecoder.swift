/// Reads what ``CompactEncoder`` wrote, replaying the same sequence of
/// values. Truncated or inconsistent bytes throw `DecodingError.dataCorrupted`
/// (a stage cache entry that fails is recomputed).
package enum CompactDecoder {
    package static func decode<T: Decodable>(_ type: T.Type, from bytes: [UInt8]) throws -> T {
        let source = CompactSource(bytes)
        let value = try source.decode(type)
        guard source.position == bytes.count else { throw source.corrupted("\(bytes.count - source.position) bytes left over") }
        return value
    }
}

/// The bytes and the read position every container of one decoding shares.
final class CompactSource {
    let bytes: [UInt8]
    var position = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    func corrupted(_ detail: String) -> DecodingError {
        .dataCorrupted(.init(codingPath: [], debugDescription: "compact record: \(detail)"))
    }

    private func take(_ count: Int) throws -> Range<Int> {
        guard count >= 0, count <= bytes.count - position else { throw corrupted("truncated at byte \(position)") }
        defer { position += count }
        return position..<(position + count)
    }

    private func word() throws -> UInt64 {
        let range = try take(8)
        return bytes.withUnsafeBytes { UInt64(littleEndian: $0.loadUnaligned(fromByteOffset: range.lowerBound, as: UInt64.self)) }
    }

    func integer<I: FixedWidthInteger>(_ type: I.Type) throws -> I {
        let value = Int64(bitPattern: try word())
        guard let exact = I(exactly: value) else { throw corrupted("\(value) does not fit \(I.self)") }
        return exact
    }

    func unsigned<I: FixedWidthInteger & UnsignedInteger>(_ type: I.Type) throws -> I {
        let value = try word()
        guard let exact = I(exactly: value) else { throw corrupted("\(value) does not fit \(I.self)") }
        return exact
    }

    func float() throws -> Float {
        let range = try take(4)
        return Float(bitPattern: bytes.withUnsafeBytes { UInt32(littleEndian: $0.loadUnaligned(fromByteOffset: range.lowerBound, as: UInt32.self)) })
    }

    func double() throws -> Double { Double(bitPattern: try word()) }

    func byte() throws -> UInt8 { bytes[try take(1).lowerBound] }

    func bool() throws -> Bool {
        switch try byte() {
        case 0: false
        case 1: true
        case let other: throw corrupted("\(other) is not a Bool")
        }
    }

    func count() throws -> Int {
        let count = try integer(Int.self)
        // Every element takes at least one byte: a larger count is corrupt (and would allocate without bound).
        guard count >= 0, count <= bytes.count - position else { throw corrupted("count \(count) at byte \(position)") }
        return count
    }

    func string() throws -> String {
        let range = try take(try count())
        return String(decoding: bytes[range], as: UTF8.self)
    }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        if let scalar = T.self as? any CompactScalar.Type {
            guard let value = try scalar.read(from: self) as? T else { throw corrupted("\(T.self) read as \(scalar)") }
            return value
        }
        if T.self is any CompactUnsupported.Type { throw corrupted("\(T.self) cannot be stored") }
        let elements = T.self is any CompactCounted.Type ? try count() : nil
        return try T(from: CompactDecoding(source: self, elements: elements, codingPath: []))
    }

    /// Reads the presence byte `encodeIfPresent` wrote: true when the value is absent.
    func absent() throws -> Bool {
        switch try byte() {
        case 0: true
        case 1: false
        case let other: throw corrupted("\(other) is not a presence byte")
        }
    }
}

struct CompactDecoding: Decoder {
    let source: CompactSource
    /// The element count read for an array, handed to its unkeyed container.
    let elements: Int?
    var codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(CompactKeyedDecoding<Key>(source: source, codingPath: codingPath))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard let elements else { throw source.corrupted("an unkeyed container without a count") }
        return CompactUnkeyedDecoding(source: source, count: elements, codingPath: codingPath)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        CompactSingleValueDecoding(source: source, codingPath: codingPath)
    }
}

struct CompactKeyedDecoding<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let source: CompactSource
    var codingPath: [any CodingKey]
    var allKeys: [Key] { [] }

    /// Every key is "there": optional values carry their own presence byte.
    func contains(_ key: Key) -> Bool { true }
    /// Only `decodeIfPresent` asks, right before the value: reads its presence byte.
    func decodeNil(forKey key: Key) throws -> Bool { try source.absent() }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try source.bool() }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try source.string() }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try source.double() }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try source.float() }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try source.integer(type) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try source.integer(type) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try source.integer(type) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try source.integer(type) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try source.integer(type) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try source.unsigned(type) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try source.unsigned(type) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try source.unsigned(type) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try source.unsigned(type) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try source.unsigned(type) }
    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { try source.decode(type) }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        KeyedDecodingContainer(CompactKeyedDecoding<NestedKey>(source: source, codingPath: codingPath + [key]))
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        throw source.corrupted("nested unkeyed containers are not supported")
    }

    func superDecoder() throws -> any Decoder { CompactDecoding(source: source, elements: nil, codingPath: codingPath) }
    func superDecoder(forKey key: Key) throws -> any Decoder { CompactDecoding(source: source, elements: nil, codingPath: codingPath + [key]) }
}

/// An array's elements, `count` of them.
struct CompactUnkeyedDecoding: UnkeyedDecodingContainer {
    let source: CompactSource
    let count: Int?
    var codingPath: [any CodingKey]
    private(set) var currentIndex = 0

    init(source: CompactSource, count: Int, codingPath: [any CodingKey]) {
        self.source = source
        self.count = count
        self.codingPath = codingPath
    }

    var isAtEnd: Bool { currentIndex >= count ?? 0 }

    private mutating func next<T>(_ read: (CompactSource) throws -> T) throws -> T {
        guard !isAtEnd else { throw source.corrupted("read past the end of an array") }
        currentIndex += 1
        return try read(source)
    }

    mutating func decodeNil() throws -> Bool { try next { try $0.absent() } }
    mutating func decode(_ type: Bool.Type) throws -> Bool { try next { try $0.bool() } }
    mutating func decode(_ type: String.Type) throws -> String { try next { try $0.string() } }
    mutating func decode(_ type: Double.Type) throws -> Double { try next { try $0.double() } }
    mutating func decode(_ type: Float.Type) throws -> Float { try next { try $0.float() } }
    mutating func decode(_ type: Int.Type) throws -> Int { try next { try $0.integer(type) } }
    mutating func decode(_ type: Int8.Type) throws -> Int8 { try next { try $0.integer(type) } }
    mutating func decode(_ type: Int16.Type) throws -> Int16 { try next { try $0.integer(type) } }
    mutating func decode(_ type: Int32.Type) throws -> Int32 { try next { try $0.integer(type) } }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { try next { try $0.integer(type) } }
    mutating func decode(_ type: UInt.Type) throws -> UInt { try next { try $0.unsigned(type) } }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try next { try $0.unsigned(type) } }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try next { try $0.unsigned(type) } }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try next { try $0.unsigned(type) } }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try next { try $0.unsigned(type) } }
    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { try next { try $0.decode(type) } }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        let path = codingPath
        return try next { KeyedDecodingContainer(CompactKeyedDecoding<NestedKey>(source: $0, codingPath: path)) }
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        throw source.corrupted("nested unkeyed containers are not supported")
    }

    mutating func superDecoder() throws -> any Decoder { CompactDecoding(source: source, elements: nil, codingPath: codingPath) }
}

/// One value. `decodeNil` reads the presence byte the encoder wrote before an optional.
struct CompactSingleValueDecoding: SingleValueDecodingContainer {
    let source: CompactSource
    var codingPath: [any CodingKey]

    func decodeNil() -> Bool { (try? source.absent()) ?? true }
    func decode(_ type: Bool.Type) throws -> Bool { try source.bool() }
    func decode(_ type: String.Type) throws -> String { try source.string() }
    func decode(_ type: Double.Type) throws -> Double { try source.double() }
    func decode(_ type: Float.Type) throws -> Float { try source.float() }
    func decode(_ type: Int.Type) throws -> Int { try source.integer(type) }
    func decode(_ type: Int8.Type) throws -> Int8 { try source.integer(type) }
    func decode(_ type: Int16.Type) throws -> Int16 { try source.integer(type) }
    func decode(_ type: Int32.Type) throws -> Int32 { try source.integer(type) }
    func decode(_ type: Int64.Type) throws -> Int64 { try source.integer(type) }
    func decode(_ type: UInt.Type) throws -> UInt { try source.unsigned(type) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try source.unsigned(type) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try source.unsigned(type) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try source.unsigned(type) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try source.unsigned(type) }
    func decode<T: Decodable>(_ type: T.Type) throws -> T { try source.decode(type) }
}
