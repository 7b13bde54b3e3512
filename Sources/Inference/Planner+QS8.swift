/// Planning static int8 activations (`ActivationGrids`).
extension Planner {
    /// A byte tensor's grid: its value is `step · (byte − zeroPoint)`.
    struct Grid: Equatable {
        var step: Float
        /// 0 (non-negative tensors) or 128 (signed ones).
        var zeroPoint: Int
    }

    /// After fusion: gives each tensor `grids` names (and the max pools and
    /// upsamplings of byte tensors) its grid, checking that its writer can
    /// write bytes and its readers read them. The int8 first convolution
    /// writes its grid's bytes itself; another ReLU convolution that cannot
    /// write bytes writes floats to a tensor of its own, which a
    /// `.quantize` node rounds onto the grid.
    /// - Throws: `InferenceError.Kind.gridUnsupported` naming the tensor,
    ///   `.gridUnknownTensor` for a name no tensor of the graph has.
    mutating func placeGrids(_ nodes: inout [Node]) throws {
        guard let grids else { return }
        let names = Set(graph.tensors.map(\.name))
        if let unknown = grids.steps.keys.sorted().first(where: { !names.contains($0) }) {
            throw InferenceError(.gridUnknownTensor(unknown))
        }
        var placed: [Node] = []
        for var node in nodes {
            let output = node.output
            let named = grids.steps[graph.tensors[output].name]
            let byteInputs = node.inputs.map { byteGrids[$0] }
            func refuse(_ why: String) -> InferenceError { InferenceError(.gridUnsupported(tensor(output), why: why)) }
            switch node.kind {
            case let .convolution(_, _, depthwise, geometry) where byteInputs[0] != nil:
                guard node.residual == nil, node.second == .none else { throw refuse("a convolution on bytes cannot take a fused ADD") }
                if depthwise {
                    guard byteInputs[0]!.zeroPoint == 128, let named else {
                        throw refuse("a depthwise convolution on bytes reads a signed grid (a 1×1 convolution's) and writes a named grid")
                    }
                    guard geometry.kernelHeight == 3, geometry.kernelWidth == 3, geometry.strideHeight == 1, geometry.strideWidth == 1,
                          geometry.padTop == 1, geometry.padLeft == 1, geometry.outHeight == geometry.inHeight,
                          geometry.outWidth == geometry.inWidth, geometry.inChannels % 4 == 0, node.first == .relu
                    else { throw refuse("a depthwise convolution on bytes must be 3×3, stride 1, padded 1, with a ReLU") }
                    byteGrids[output] = Grid(step: named, zeroPoint: 0)
                } else {
                    guard geometry.isPointwise, byteInputs[0]!.zeroPoint == 0, node.first == .none,
                          geometry.inChannels <= QS8PointwiseWeights.largestInputChannels
                    else { throw refuse("a convolution on bytes must be 1×1 on a non-negative grid, with no activation") }
                    if let named {
                        guard geometry.outChannels % 4 == 0 else { throw refuse("a byte tensor needs a multiple of 4 channels") }
                        byteGrids[output] = Grid(step: named, zeroPoint: 128)
                    }
                }
            case let .convolution(_, _, depthwise, _) where named != nil && writesInt8FirstConvolution(node, depthwise: depthwise):
                // The int8 first convolution writes the grid's bytes itself.
                guard node.first == .relu || node.first == .relu6, let shape = shapes[output], shape.count == 4, shape[3] % 4 == 0
                else { throw refuse("the int8 first convolution writes bytes only after a ReLU, with a multiple of 4 channels") }
                byteGrids[output] = Grid(step: named!, zeroPoint: 0)
            case .convolution where named != nil:
                guard node.residual == nil, node.second == .none, node.first == .relu || node.first == .relu6,
                      let shape = shapes[output], shape.count == 4, shape[3] % 4 == 0
                else { throw refuse("a float convolution's output is quantized only after a ReLU, with a multiple of 4 channels") }
                let floats = shapes.count
                shapes.append(shapes[output])
                node.output = floats
                placed.append(node)
                node = Node(kind: .quantize, inputs: [floats], output: output)
                byteGrids[output] = Grid(step: named!, zeroPoint: 0)
            case let .maxPool(geometry) where byteInputs[0] != nil:
                guard geometry.kernelHeight == 2, geometry.kernelWidth == 2, geometry.strideHeight == 2, geometry.strideWidth == 2,
                      geometry.padTop == 0, geometry.padLeft == 0
                else { throw refuse("a max pool of bytes must be 2×2, stride 2, VALID") }
                byteGrids[output] = byteInputs[0]
            case .resizeNearestNeighbor where byteInputs[0] != nil:
                byteGrids[output] = byteInputs[0]
            case .add where byteInputs.contains(where: { $0 != nil }):
                guard byteInputs.allSatisfy({ $0?.zeroPoint == 0 }), node.first == .none, let named else {
                    throw refuse("an ADD of bytes sums two non-negative byte tensors onto a named grid")
                }
                byteGrids[output] = Grid(step: named, zeroPoint: 0)
            default:
                if let input = node.inputs.first(where: { byteGrids[$0] != nil }) {
                    throw InferenceError(.gridUnsupported(tensor(input), why: "no step here reads it as bytes"))
                }
                if named != nil { throw refuse("no step here writes it as bytes") }
            }
            if let residual = node.residual, byteGrids[residual] != nil {
                throw InferenceError(.gridUnsupported(tensor(residual), why: "a fused ADD cannot read bytes"))
            }
            placed.append(node)
        }
        for output in graph.outputs where byteGrids[output] != nil {
            throw InferenceError(.gridUnsupported(tensor(output), why: "a graph output is floats"))
        }
        nodes = placed
    }

    /// The step of 1×1 convolution `node` on bytes, placing `QS8PointwiseWeights`' block in the pool.
    mutating func qs8Pointwise(_ node: Node, weights: Int, bias: Int?, geometry: WindowGeometry, input: Int, output: Int) throws -> Step {
        let inputGrid = byteGrids[node.inputs[0]]!, outputGrid = byteGrids[node.output]
        let layout = QS8PointwiseWeights(inChannels: geometry.inChannels, outChannels: geometry.outChannels)
        let table = pool.countingOnly
            ? pool.reserve(layout.count)
            : pool.append(layout.pack(try floats(weights), bias: try bias.map { try floats($0) } ?? [Float](repeating: 0, count: geometry.outChannels),
                                      inputStep: inputGrid.step, outputStep: outputGrid?.step))
        return .qs8Pointwise(.init(input: input, output: output, kernel: QS8PointwiseKernel.best(features: kernelFeatures), table: table,
                                   geometry: geometry, floatOutput: outputGrid == nil))
    }

    /// The step of depthwise convolution `node` on bytes, placing `QS8DepthwiseWeights`' block in the pool.
    mutating func qs8Depthwise(_ node: Node, weights: Int, bias: Int?, geometry: WindowGeometry, input: Int, output: Int) throws -> Step {
        let inputGrid = byteGrids[node.inputs[0]]!, outputGrid = byteGrids[node.output]!
        let layout = QS8DepthwiseWeights(channels: geometry.outChannels)
        let table = pool.countingOnly
            ? pool.reserve(layout.count)
            : pool.append(layout.pack(try floats(weights), bias: try bias.map { try floats($0) } ?? [Float](repeating: 0, count: geometry.outChannels),
                                      inputStep: inputGrid.step, outputStep: outputGrid.step))
        return .qs8Depthwise(.init(input: input, output: output, kernel: QS8DepthwiseKernel.best(for: geometry.outChannels, features: kernelFeatures),
                                   table: table, geometry: geometry))
    }
}
