/// A tensor of a subgraph as the file declares it.
public struct TFLiteTensor: Sendable, Equatable {
    public var name: String
    public var shape: [Int]
    public var type: TensorType
    /// Index into `TFLiteModel.buffers`; buffer 0 is the empty sentinel.
    public var buffer: Int
    public var sparsity: Sparsity?

    public init(name: String, shape: [Int], type: TensorType, buffer: Int, sparsity: Sparsity? = nil) {
        self.name = name
        self.shape = shape
        self.type = type
        self.buffer = buffer
        self.sparsity = sparsity
    }
}

/// An operator of a subgraph: its resolved code, operand tensor indices (-1 = absent optional operand) and options.
public struct TFLiteOperator: Sendable, Equatable {
    public var code: BuiltinOperator
    public var version: Int
    public var inputs: [Int]
    public var outputs: [Int]
    public var options: OperatorOptions

    public init(code: BuiltinOperator, version: Int = 1, inputs: [Int], outputs: [Int], options: OperatorOptions) {
        self.code = code
        self.version = version
        self.inputs = inputs
        self.outputs = outputs
        self.options = options
    }
}

public struct TFLiteSubgraph: Sendable, Equatable {
    public var name: String
    public var tensors: [TFLiteTensor]
    public var inputs: [Int]
    public var outputs: [Int]
    /// In file order, which the converter writes topologically sorted.
    public var operators: [TFLiteOperator]

    public init(name: String, tensors: [TFLiteTensor], inputs: [Int], outputs: [Int], operators: [TFLiteOperator]) {
        self.name = name
        self.tensors = tensors
        self.inputs = inputs
        self.outputs = outputs
        self.operators = operators
    }
}

/// A parsed TFLite (schema v3) model. Parsing validates every offset, length
/// and index against the file; constant data stays in `bytes` and is reached
/// through `data(ofBuffer:)`.
public struct TFLiteModel: Sendable {
    public let bytes: [UInt8]
    public let version: Int
    public let description: String
    public let subgraphs: [TFLiteSubgraph]
    /// Byte range of each buffer's data inside `bytes` (empty for buffers without data).
    public let buffers: [Range<Int>]

    /// Parses and validates `bytes`. Throws `ModelError` for anything malformed.
    public init(bytes: [UInt8]) throws(ModelError) {
        let buffer = FlatBuffer(bytes: bytes)
        guard bytes.count >= 8 else { throw .truncated(what: "header", offset: 0, fileSize: bytes.count) }
        // Optional file identifier "TFL3" at bytes 4..<8; older converters may omit it, so it is not required.
        let root = try buffer.rootTable("model")
        self.bytes = bytes
        version = Int(try root.scalar(0, default: UInt32(0)))
        guard version == 3 else { throw .unsupportedSchemaVersion(version) }
        description = try root.string(3, "description") ?? ""

        // Operator codes: builtin code is the max of the deprecated int8 field 0 and the int32 field 3.
        var codes: [(BuiltinOperator, Int, String?)] = []
        if let vector = try root.vector(1, elementSize: 4, "operator_codes") {
            for index in 0..<vector.count {
                let table = try vector.table(index)
                let deprecated = Int32(try table.scalar(0, default: Int8(0)))
                let extended = try table.scalar(3, default: Int32(0))
                let custom = try table.string(1, "custom_code")
                codes.append((BuiltinOperator(rawValue: max(deprecated, extended)), Int(try table.scalar(2, default: Int32(1))), custom))
            }
        }

        var buffers: [Range<Int>] = []
        if let vector = try root.vector(4, elementSize: 4, "buffers") {
            buffers.reserveCapacity(vector.count)
            for index in 0..<vector.count {
                let table = try vector.table(index)
                if let data = try table.vector(0, elementSize: 1, "data") {
                    buffers.append(data.byteRange)
                } else {
                    let offset = try table.scalar(1, default: UInt64(0))
                    let size = try table.scalar(2, default: UInt64(0))
                    if offset > 1 {
                        guard offset <= UInt64(bytes.count), size <= UInt64(bytes.count) - offset else {
                            throw .truncated(what: "data of buffer \(index)", offset: Int(clamping: offset), fileSize: bytes.count)
                        }
                        buffers.append(Int(offset)..<Int(offset + size))
                    } else {
                        buffers.append(0..<0)
                    }
                }
            }
        }
        self.buffers = buffers

        guard let subgraphVector = try root.vector(2, elementSize: 4, "subgraphs") else { throw .missingField("Model.subgraphs") }
        var subgraphs: [TFLiteSubgraph] = []
        for index in 0..<subgraphVector.count {
            subgraphs.append(try Self.subgraph(try subgraphVector.table(index), codes: codes, bufferCount: buffers.count))
        }
        guard !subgraphs.isEmpty else { throw .noSubgraph }
        self.subgraphs = subgraphs
    }

    /// A model declared in code rather than read from a file (a graph a Swift
    /// type describes, e.g. YuNet's): `bytes` holds the constant data,
    /// `buffers` each buffer's range in it (buffer 0 conventionally empty).
    /// Checked like a parsed file: every range inside `bytes`, every buffer
    /// and tensor index in range, no custom operator.
    public init(subgraphs: [TFLiteSubgraph], bytes: [UInt8], buffers: [Range<Int>], description: String = "") throws(ModelError) {
        for (index, range) in buffers.enumerated() where !range.isEmpty {
            guard range.lowerBound >= 0, range.upperBound <= bytes.count else {
                throw .truncated(what: "data of buffer \(index)", offset: range.lowerBound, fileSize: bytes.count)
            }
        }
        guard !subgraphs.isEmpty else { throw .noSubgraph }
        for graph in subgraphs {
            for (index, tensor) in graph.tensors.enumerated() {
                guard tensor.buffer >= 0, tensor.buffer < buffers.count || (tensor.buffer == 0 && buffers.isEmpty) else {
                    throw .indexOutOfRange(what: "buffer of tensor \(index)", index: tensor.buffer, count: buffers.count)
                }
                if let bad = tensor.shape.first(where: { $0 < 0 }) { throw .negativeDimension(tensor: index, dimension: Int(bad)) }
            }
            func check(_ list: [Int], _ what: String, allowAbsent: Bool) throws(ModelError) {
                for index in list where !(allowAbsent && index == -1) {
                    guard index >= 0, index < graph.tensors.count else {
                        throw .indexOutOfRange(what: what, index: index, count: graph.tensors.count)
                    }
                }
            }
            try check(graph.inputs, "subgraph input tensor", allowAbsent: false)
            try check(graph.outputs, "subgraph output tensor", allowAbsent: false)
            for (index, op) in graph.operators.enumerated() {
                guard op.code != .custom else { throw .customOperator(index: index, name: nil) }
                try check(op.inputs, "input tensor of operator \(index) (\(op.code))", allowAbsent: true)
                try check(op.outputs, "output tensor of operator \(index) (\(op.code))", allowAbsent: false)
            }
        }
        self.bytes = bytes
        version = 3
        self.description = description
        self.subgraphs = subgraphs
        self.buffers = buffers
    }

    /// The constant bytes of buffer `index` (empty when it has none).
    public func data(ofBuffer index: Int) -> ArraySlice<UInt8> {
        guard index >= 0, index < buffers.count else { return [] }
        return bytes[buffers[index]]
    }

    private static func subgraph(_ table: FlatTable, codes: [(BuiltinOperator, Int, String?)], bufferCount: Int) throws(ModelError) -> TFLiteSubgraph {
        var tensors: [TFLiteTensor] = []
        if let vector = try table.vector(0, elementSize: 4, "tensors") {
            tensors.reserveCapacity(vector.count)
            for index in 0..<vector.count {
                let tensor = try vector.table(index)
                let rawType = try tensor.scalar(1, default: Int8(0))
                guard let type = TensorType(rawValue: rawType) else { throw .undefinedTensorType(tensor: index, type: Int(rawType)) }
                let buffer = Int(try tensor.scalar(2, default: UInt32(0)))
                guard buffer < bufferCount || (buffer == 0 && bufferCount == 0) else {
                    throw .indexOutOfRange(what: "buffer of tensor \(index)", index: buffer, count: bufferCount)
                }
                let shape = try tensor.int32s(0, "shape") ?? []
                if let bad = shape.first(where: { $0 < 0 }) {
                    throw .negativeDimension(tensor: index, dimension: Int(bad))
                }
                let sparsity = try tensor.table(6, "sparsity").map { table throws(ModelError) in try Sparsity.decode(table) }
                tensors.append(TFLiteTensor(
                    name: try tensor.string(3, "name") ?? "tensor\(index)", shape: shape, type: type,
                    buffer: buffer, sparsity: sparsity))
            }
        }
        func checkTensors(_ list: [Int], _ what: String, allowAbsent: Bool) throws(ModelError) {
            for index in list where !(allowAbsent && index == -1) {
                guard index >= 0, index < tensors.count else {
                    throw .indexOutOfRange(what: what, index: index, count: tensors.count)
                }
            }
        }
        let inputs = try table.int32s(1, "inputs") ?? []
        let outputs = try table.int32s(2, "outputs") ?? []
        try checkTensors(inputs, "subgraph input tensor", allowAbsent: false)
        try checkTensors(outputs, "subgraph output tensor", allowAbsent: false)

        var operators: [TFLiteOperator] = []
        if let vector = try table.vector(3, elementSize: 4, "operators") {
            operators.reserveCapacity(vector.count)
            for index in 0..<vector.count {
                let op = try vector.table(index)
                let codeIndex = Int(try op.scalar(0, default: UInt32(0)))
                guard codeIndex < codes.count else {
                    throw .indexOutOfRange(what: "operator code of operator \(index)", index: codeIndex, count: codes.count)
                }
                let (code, version, custom) = codes[codeIndex]
                if code == .custom {
                    throw .customOperator(index: index, name: custom ?? "?")
                }
                let opInputs = try op.int32s(1, "inputs") ?? []
                let opOutputs = try op.int32s(2, "outputs") ?? []
                try checkTensors(opInputs, "input tensor of operator \(index) (\(code))", allowAbsent: true)
                try checkTensors(opOutputs, "output tensor of operator \(index) (\(code))", allowAbsent: false)
                let optionsTable = try op.table(4, "builtin_options")
                operators.append(TFLiteOperator(
                    code: code, version: version, inputs: opInputs, outputs: opOutputs,
                    options: try OperatorOptions.decode(code, table: optionsTable)))
            }
        }
        return TFLiteSubgraph(
            name: try table.string(4, "name") ?? "", tensors: tensors, inputs: inputs, outputs: outputs, operators: operators)
    }
}
