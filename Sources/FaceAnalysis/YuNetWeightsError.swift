/// Why `models/yunet_s.weights` cannot be used. Every case names the file.
public enum YuNetWeightsError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The first 8 bytes are not `FPYUNET1`.
    case badMagic(file: String)
    /// The file ends inside `what`, which starts at byte `offset`.
    case truncated(file: String, what: String, offset: Int)
    /// An array name is empty, too long or not UTF-8.
    case badName(file: String, offset: Int)
    /// Names must be unique and sorted; `name` comes after `previous`.
    case unsorted(file: String, name: String, previous: String)
    /// More arrays than the format allows.
    case tooManyArrays(file: String, count: Int)
    /// The graph needs `name`, which the file lacks.
    case missingArray(file: String, name: String)
    /// The file holds `name`, which the graph does not use.
    case unexpectedArray(file: String, name: String)
    /// `name` holds `found` values where the graph declares `expected`.
    case wrongCount(file: String, name: String, expected: Int, found: Int)
    /// Value `index` of `name` is NaN or infinite.
    case nonFinite(file: String, name: String, index: Int)
    /// Bytes after the last array.
    case trailingBytes(file: String, count: Int)

    public var description: String {
        switch self {
        case let .badMagic(file): "YuNet weights \(file) do not start with FPYUNET1 (re-run `make models`)"
        case let .truncated(file, what, offset): "YuNet weights \(file) end inside \(what) at byte \(offset)"
        case let .badName(file, offset): "YuNet weights \(file) have an empty, over-long or non-UTF-8 array name at byte \(offset)"
        case let .unsorted(file, name, previous): "YuNet weights \(file): array \(name) follows \(previous); names must be unique and sorted"
        case let .tooManyArrays(file, count): "YuNet weights \(file) declare \(count) arrays, more than the format allows"
        case let .missingArray(file, name): "YuNet weights \(file) lack array \(name)"
        case let .unexpectedArray(file, name): "YuNet weights \(file) hold array \(name), which YuNet-s does not use"
        case let .wrongCount(file, name, expected, found): "YuNet weights \(file): array \(name) has \(found) values, YuNet-s needs \(expected)"
        case let .nonFinite(file, name, index): "YuNet weights \(file): value \(index) of array \(name) is not finite"
        case let .trailingBytes(file, count): "YuNet weights \(file) have \(count) bytes after the last array"
        }
    }
}
