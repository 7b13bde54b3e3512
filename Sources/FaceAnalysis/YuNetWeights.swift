import Foundation

/// The weights of YuNet-s as `make models` writes them
/// (`models/yunet_s.weights`, docs/YUNET.md): 8 bytes `FPYUNET1`, UInt32 LE
/// array count, then per array, sorted by name: UInt16 LE name length, the
/// UTF-8 name, UInt32 LE element count and that many float32 LE values.
///
/// The file is treated as hostile: every length is checked against the
/// bytes left, names must be unique and sorted, and the arrays must be
/// exactly those `YuNetGraph` declares, each with its declared count and
/// finite values. Any failure is a `YuNetWeightsError` naming the file.
public struct YuNetWeights: Sendable {
    public static let magic = Array("FPYUNET1".utf8)
    /// More arrays than any YuNet variant has.
    static let maximumArrays = 4096
    static let maximumNameLength = 256

    /// The file the weights came from (for messages).
    public let file: String
    /// Values by array name.
    public let arrays: [String: [Float]]

    /// Reads and validates `bytes` (`file` names them in errors).
    public init(bytes: [UInt8], file: String) throws(YuNetWeightsError) {
        self.file = file
        guard bytes.count >= 8, Array(bytes[0..<8]) == Self.magic else { throw .badMagic(file: file) }
        var offset = 8
        func integer(_ size: Int, _ what: @autoclosure () -> String) throws(YuNetWeightsError) -> Int {
            guard bytes.count - offset >= size else { throw .truncated(file: file, what: what(), offset: offset) }
            var value = 0
            for index in 0..<size { value |= Int(bytes[offset + index]) << (8 * index) }
            offset += size
            return value
        }
        let count = try integer(4, "the array count")
        guard count <= Self.maximumArrays else { throw .tooManyArrays(file: file, count: count) }
        var arrays: [String: [Float]] = [:]
        var previous: String?
        for index in 0..<count {
            let nameOffset = offset
            let length = try integer(2, "the name length of array \(index)")
            guard length >= 1, length <= Self.maximumNameLength else { throw .badName(file: file, offset: nameOffset) }
            guard bytes.count - offset >= length else { throw .truncated(file: file, what: "the name of array \(index)", offset: offset) }
            guard let name = String(validating: bytes[offset..<(offset + length)], as: UTF8.self) else {
                throw .badName(file: file, offset: nameOffset)
            }
            offset += length
            if let previous, !(previous < name) { throw .unsorted(file: file, name: name, previous: previous) }
            previous = name
            let elements = try integer(4, "the element count of array \(name)")
            guard let expected = YuNetGraph.arrays[name] else { throw .unexpectedArray(file: file, name: name) }
            guard elements == expected else { throw .wrongCount(file: file, name: name, expected: expected, found: elements) }
            guard (bytes.count - offset) / 4 >= elements else {
                throw .truncated(file: file, what: "the \(elements) values of array \(name)", offset: offset)
            }
            var values = [Float](repeating: 0, count: elements)
            for element in 0..<elements {
                let at = offset + element * 4
                let bits = UInt32(bytes[at]) | UInt32(bytes[at + 1]) << 8 | UInt32(bytes[at + 2]) << 16 | UInt32(bytes[at + 3]) << 24
                let value = Float(bitPattern: bits)
                guard value.isFinite else { throw .nonFinite(file: file, name: name, index: element) }
                values[element] = value
            }
            offset += elements * 4
            arrays[name] = values
        }
        guard offset == bytes.count else { throw .trailingBytes(file: file, count: bytes.count - offset) }
        for name in YuNetGraph.arrays.keys.sorted() where arrays[name] == nil {
            throw .missingArray(file: file, name: name)
        }
        self.arrays = arrays
    }
}
