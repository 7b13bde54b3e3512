import TFLite

/// Turns a parsed subgraph into a `Plan`: checks every operator's operands,
/// infers and checks shapes, folds DEQUANTIZE/DENSIFY of constants, packs
/// weights, fuses activations and residual ADDs into convolution epilogues,
/// and lays out the arena from tensor lifetimes.
struct Planner {
    static let maximumElements = 1 << 28

    let file: TFLiteModel
    let graph: TFLiteSubgraph
    /// Inferred shape of every tensor that is a graph input, a constant or an operator output.
    var shapes: [[Int]?]
    /// Float values of constant tensors (float32 buffers and folded DEQUANTIZE/DENSIFY outputs).
    var folded: [Int: [Float]] = [:]
    var pool = ConstantPoolBuilder()
    var statistics = ModelStatistics()

    init(file: TFLiteModel) throws {
        guard file.subgraphs.count == 1 else {
            throw InferenceError("the model has \(file.subgraphs.count) subgraphs; only single-subgraph models are supported")
        }
        self.file = file
        graph = file.subgraphs[0]
        shapes = Array(repeating: nil, count: graph.tensors.count)
    }

    // MARK: Tensors

    func name(_ tensor: Int) -> String { "tensor \(tensor) '\(graph.tensors[tensor].name)'" }

    func isConstant(_ tensor: Int) -> Bool {
        folded[tensor] != nil || !file.data(ofBuffer: graph.tensors[tensor].buffer).isEmpty
    }

    static func elementCount(_ shape: [Int], _ what: @autoclosure () -> String) throws -> Int {
        var count = 1
        for dimension in shape {
            let (product, overflow) = count.multipliedReportingOverflow(by: dimension)
            guard !overflow, product <= maximumElements else {
                throw InferenceError("\(what()) has shape \(shape), larger than \(maximumElements) elements")
            }
            count = product
        }
        return count
    }

    /// The float values of a constant tensor, checked against its shape.
    mutating func floats(_ tensor: Int) throws -> [Float] {
        if let values = folded[tensor] { return values }
        let declared = graph.tensors[tensor]
        let data = file.data(ofBuffer: declared.buffer)
        guard !data.isEmpty else { throw InferenceError("\(name(tensor)) must be a constant but has no data") }
        guard declared.sparsity == nil else { throw InferenceError("\(name(tensor)) is sparse and is not densified by a DENSIFY operator") }
        let count = try Self.elementCount(declared.shape, name(tensor))
        let values: [Float]
        switch declared.type {
        case .float32:
            guard data.count == count * 4 else { throw InferenceError("\(name(tensor)) has \(data.count) bytes for \(count) FLOAT32 values") }
            values = Float16Conversion.decodeFloat32(data)
        default:
            throw InferenceError("\(name(tensor)) has type \(declared.type); only FLOAT32 weights (or FLOAT16 through DEQUANTIZE) are supported")
        }
        folded[tensor] = values
        return values
    }

    /// The values of a constant INT32 tensor (paddings, sizes).
    func int32s(_ tensor: Int) throws -> [Int] {
        let declared = graph.tensors[tensor]
        let data = file.data(ofBuffer: declared.buffer)
        guard declared.type == .int32, !data.isEmpty, data.count % 4 == 0 else {
            throw InferenceError("\(name(tensor)) must be a constant INT32 tensor (it is \(declared.type), \(data.count) bytes)")
        }
        let count = try Self.elementCount(declared.shape, name(tensor))
        guard count == data.count / 4 else { throw InferenceError("\(name(tensor)) has \(data.count) bytes for \(count) INT32 values") }
        return data.withUnsafeBytes { raw in
            (0..<count).map { Int(Int32(littleEndian: raw.loadUnaligned(fromByteOffset: $0 * 4, as: Int32.self))) }
        }
    }

    // MARK: Plan

    mutating func plan() throws -> (Plan, ConstantPool) {
        // Graph inputs.
        for input in graph.inputs {
            let tensor = graph.tensors[input]
            guard tensor.type == .float32 else { throw InferenceError("model input \(name(input)) has type \(tensor.type); only FLOAT32 is supported") }
            guard !isConstant(input) else { throw InferenceError("model input \(name(input)) is a constant") }
            _ = try Self.elementCount(tensor.shape, name(input))
            shapes[input] = tensor.shape
        }
        // Constants get their declared shapes.
        for index in graph.tensors.indices where shapes[index] == nil && isConstant(index) {
            shapes[index] = graph.tensors[index].shape
        }

        var nodes: [Node] = []
        for (index, op) in graph.operators.enumerated() {
            if let node = try prepare(op, index: index) { nodes.append(node) }
        }
        for output in graph.outputs {
            guard shapes[output] != nil, !isConstant(output) else {
                throw InferenceError("model output \(name(output)) is never computed by an operator")
            }
        }
        fuse(&nodes)
        return try build(nodes)
    }
}
