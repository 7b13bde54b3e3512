/// Why a TFLite file cannot be read. Every case names what failed, with
/// the values read, so a test compares the case and a user reads one sentence.
public enum ModelError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file is shorter than a structure it declares (`what` names the structure).
    case truncated(what: String, offset: Int, fileSize: Int)
    /// A required field of the schema is absent.
    case missingField(String)
    /// An index (tensor, buffer, operator code…) is out of range.
    case indexOutOfRange(what: String, index: Int, count: Int)
    /// A table's vtable declares a size that is not an even number of at least 4 bytes.
    case vtableSize(table: String, size: Int)
    /// A table's field lies past the end of the table.
    case fieldOutsideTable(table: String, field: Int, tableSize: Int)
    /// A vector declares more elements than a byte count can hold.
    case elementCountOverflow(vector: String, count: Int)
    /// An operator's fused activation is a value the schema does not define.
    case undefinedActivation(operator: String, value: Int)
    /// An operator's padding is a value the schema does not define.
    case undefinedPadding(operator: String, value: Int)
    /// The model has no subgraph.
    case noSubgraph
    /// A tensor's shape has a negative dimension.
    case negativeDimension(tensor: Int, dimension: Int)
    /// A tensor's type is a value the schema does not define.
    case undefinedTensorType(tensor: Int, type: Int)
    /// A sparse tensor's dimension has a format the schema does not define.
    case undefinedSparseFormat(dimension: Int, format: Int)
    /// A sparse tensor's index vector has a type the schema does not define.
    case undefinedIndexVectorType(vector: String, type: Int)
    /// A schema version other than 3.
    case unsupportedSchemaVersion(Int)
    /// A custom operator (`name` when the file names it).
    case customOperator(index: Int, name: String?)

    public var description: String {
        switch self {
        case let .truncated(what, offset, fileSize):
            "truncated model: \(what) at byte \(offset) runs past the end of the \(fileSize)-byte file"
        case let .missingField(field): "malformed model: required field \(field) is missing"
        case let .indexOutOfRange(what, index, count): "malformed model: \(what) index \(index) is out of range 0..<\(count)"
        case let .vtableSize(table, size): "malformed model: vtable of \(table) has size \(size)"
        case let .fieldOutsideTable(table, field, tableSize): "malformed model: field \(field) of \(table) lies outside its \(tableSize)-byte table"
        case let .elementCountOverflow(vector, count): "malformed model: \(vector) declares \(count) elements"
        case let .undefinedActivation(op, value): "malformed model: \(op) has fused activation \(value), which the schema does not define"
        case let .undefinedPadding(op, value): "malformed model: \(op) has padding \(value)"
        case .noSubgraph: "malformed model: the model has no subgraph"
        case let .negativeDimension(tensor, dimension): "malformed model: tensor \(tensor) has dimension \(dimension)"
        case let .undefinedTensorType(tensor, type): "malformed model: tensor \(tensor) has type \(type)"
        case let .undefinedSparseFormat(dimension, format): "malformed model: dimension \(dimension) of a sparse tensor has format \(format)"
        case let .undefinedIndexVectorType(vector, type): "malformed model: \(vector) has index vector type \(type)"
        case let .unsupportedSchemaVersion(version): "unsupported model: schema version \(version) (only version 3 is supported)"
        case let .customOperator(index, name?): "unsupported model: operator \(index) is the custom operator \(name)"
        case let .customOperator(index, nil): "unsupported model: operator \(index) is a custom operator"
        }
    }
}
