/// Why a TFLite file cannot be read. Every case names what failed.
public enum ModelError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file is shorter than a structure it declares (`what` names the structure).
    case truncated(what: String, offset: Int, fileSize: Int)
    /// An offset, length or index inside the file points outside it or is malformed.
    case malformed(String)
    /// A field that the schema requires is absent.
    case missingField(String)
    /// An index (tensor, buffer, operator code…) is out of range.
    case indexOutOfRange(what: String, index: Int, count: Int)
    /// The file uses a feature the reader does not support.
    case unsupported(String)

    public var description: String {
        switch self {
        case let .truncated(what, offset, fileSize):
            "truncated model: \(what) at byte \(offset) runs past the end of the \(fileSize)-byte file"
        case let .malformed(message): "malformed model: \(message)"
        case let .missingField(field): "malformed model: required field \(field) is missing"
        case let .indexOutOfRange(what, index, count): "malformed model: \(what) index \(index) is out of range 0..<\(count)"
        case let .unsupported(message): "unsupported model: \(message)"
        }
    }
}
