import TFLite

/// Turns a parsed subgraph into a `Plan`: prepares the operators in graph
/// order, each by its own `OperatorPreparation` (`Operators/`: operands
/// checked, shapes inferred, DEQUANTIZE/DENSIFY of constants folded), packs
/// weights, fuses activations and residual ADDs into convolution epilogues,
/// and lays out the arena from tensor lifetimes. Every refusal is an
/// `InferenceError` naming the operator and tensors.
struct Planner {
    static let maximumElements = 1 << 28

    let file: TFLiteModel
    let graph: TFLiteSubgraph
    /// Inferred shape of every tensor that is a graph input, a constant or an operator output.
    var shapes: [[Int]?]
    /// Float values of constant tensors (float32 buffers and folded DEQUANTIZE/DENSIFY outputs).
    var folded: [Int: [Float]] = [:]
    var pool: ConstantPoolBuilder
    var statistics = ModelStatistics()
    /// The input shape to plan for instead of the declared one (nil: declared).
    let inputShape: [Int]?
    /// Whether the plan uses another spatial input size than the file declares:
    /// declared activation shapes are then not checked, RESIZE_BILINEAR keeps
    /// its declared ratio and RESHAPE targets follow the spatial size.
    private(set) var resized = false
    /// The already packed constants of the same file planned at another size.
    let sharedConstants: ConstantPool?
    /// The micro-kernels this plan may choose from (`Planner+KernelChoice`).
    let kernels: KernelSet
    /// The first convolution's arithmetic (`Planner+Int8`).
    let firstConvolution: FirstConvolution
    /// The block projections' arithmetic (`Planner+Int8Pointwise`).
    let pointwise: PointwiseConvolution
    /// The tensors to hold as bytes (`Planner+QS8`).
    let grids: ActivationGrids?
    /// The grid of every byte tensor, once `placeGrids` has run.
    var byteGrids: [Int: Grid] = [:]

    /// - Parameters:
    ///   - inputShape: `[1, H, W, C]` to plan the (single) input at another spatial size.
    ///   - sharedConstants: the pool of a plan of the same file; constants are then
    ///     laid out but not packed again.
    init(file: TFLiteModel, inputShape: [Int]? = nil, sharedConstants: ConstantPool? = nil, kernels: KernelSet = .avx2,
         firstConvolution: FirstConvolution = .float32, pointwise: PointwiseConvolution = .float32, grids: ActivationGrids? = nil) throws {
        guard file.subgraphs.count == 1 else {
            throw InferenceError(.subgraphCount(file.subgraphs.count))
        }
        self.file = file
        graph = file.subgraphs[0]
        shapes = Array(repeating: nil, count: graph.tensors.count)
        self.inputShape = inputShape
        self.sharedConstants = sharedConstants
        self.kernels = kernels
        self.firstConvolution = firstConvolution
        self.pointwise = pointwise
        self.grids = grids
        pool = ConstantPoolBuilder(countingOnly: sharedConstants != nil)
    }

    // MARK: Tensors

    /// Tensor `index` as errors name it.
    func tensor(_ index: Int) -> TensorReference {
        TensorReference(index: index, name: index < graph.tensors.count ? graph.tensors[index].name : "(floats before quantizing)")
    }

    func isConstant(_ tensor: Int) -> Bool {
        folded[tensor] != nil || !file.data(ofBuffer: graph.tensors[tensor].buffer).isEmpty
    }

    /// The number of elements of `shape`, the shape of `tensor`.
    /// - Throws: `.tooManyElements` on overflow or beyond `maximumElements`.
    static func elementCount(_ shape: [Int], of tensor: @autoclosure () -> TensorReference) throws -> Int {
        var count = 1
        for dimension in shape {
            let (product, overflow) = count.multipliedReportingOverflow(by: dimension)
            guard !overflow, product <= maximumElements else {
                throw InferenceError(.tooManyElements(tensor(), shape: shape, limit: maximumElements))
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
        guard !data.isEmpty else { throw InferenceError(.notConstant(self.tensor(tensor))) }
        guard declared.sparsity == nil else { throw InferenceError(.sparseNotDensified(self.tensor(tensor))) }
        let count = try Self.elementCount(declared.shape, of: self.tensor(tensor))
        let values: [Float]
        switch declared.type {
        case .float32:
            guard data.count == count * 4 else { throw InferenceError(.byteCount(self.tensor(tensor), bytes: data.count, values: count, type: .float32)) }
            values = Float16Conversion.decodeFloat32(data)
        default:
            throw InferenceError(.weightType(self.tensor(tensor), declared.type))
        }
        folded[tensor] = values
        return values
    }

    /// The values of a constant INT32 tensor (paddings, sizes).
    func int32s(_ tensor: Int) throws -> [Int] {
        let declared = graph.tensors[tensor]
        let data = file.data(ofBuffer: declared.buffer)
        guard declared.type == .int32, !data.isEmpty, data.count % 4 == 0 else {
            throw InferenceError(.notInt32Constant(self.tensor(tensor), type: declared.type, bytes: data.count))
        }
        let count = try Self.elementCount(declared.shape, of: self.tensor(tensor))
        guard count == data.count / 4 else { throw InferenceError(.byteCount(self.tensor(tensor), bytes: data.count, values: count, type: .int32)) }
        return data.withUnsafeBytes { raw in
            (0..<count).map { Int(Int32(littleEndian: raw.loadUnaligned(fromByteOffset: $0 * 4, as: Int32.self))) }
        }
    }

    // MARK: Plan

    mutating func plan() throws -> (Plan, ConstantPool) {
        // Graph inputs.
        for input in graph.inputs {
            let tensor = graph.tensors[input]
            guard tensor.type == .float32 else { throw InferenceError(.inputType(self.tensor(input), tensor.type)) }
            guard !isConstant(input) else { throw InferenceError(.constantInput(self.tensor(input))) }
            _ = try Self.elementCount(tensor.shape, of: self.tensor(input))
            shapes[input] = tensor.shape
        }
        if let inputShape { try applyInputShape(inputShape) }
        if firstConvolution == .int8 { try checkInt8FirstConvolution() }
        // Constants get their declared shapes, countable without overflow (operators multiply them out).
        for index in graph.tensors.indices where shapes[index] == nil && isConstant(index) {
            _ = try Self.elementCount(graph.tensors[index].shape, of: tensor(index))
            shapes[index] = graph.tensors[index].shape
        }

        var nodes: [Node] = []
        for (index, op) in graph.operators.enumerated() {
            if let node = try prepare(op, index: index) { nodes.append(node) }
        }
        for output in graph.outputs {
            guard shapes[output] != nil, !isConstant(output) else {
                throw InferenceError(.outputNotComputed(tensor(output)))
            }
        }
        fuse(&nodes)
        if grids != nil { try placeGrids(&nodes) }
        return try build(nodes)
    }

    /// Replaces the declared shape of the single image input by `requested`
    /// (same batch and channels, any positive height and width).
    private mutating func applyInputShape(_ requested: [Int]) throws {
        guard graph.inputs.count == 1 else {
            throw InferenceError(.resizeNeedsSingleInput(inputs: graph.inputs.count))
        }
        let input = graph.inputs[0]
        let declared = graph.tensors[input].shape
        guard declared.count == 4, requested.count == 4 else {
            throw InferenceError(.resizeNeedsImage(tensor(input), declared: declared, requested: requested))
        }
        guard requested[0] == declared[0], requested[3] == declared[3], requested[1] >= 1, requested[2] >= 1 else {
            throw InferenceError(.resizeShape(declared: declared, requested: requested))
        }
        _ = try Self.elementCount(requested, of: tensor(input))
        shapes[input] = requested
        resized = requested != declared
    }
}
