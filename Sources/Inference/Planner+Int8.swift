import TFLite

/// Planning an `.int8` first convolution (`FirstConvolution`).
extension Planner {
    /// Checks that the graph's single input is a float `[1, H, W, 3]` read
    /// only by a CONV_2D (as its input): the layer whose input can be the picture's bytes.
    func checkInt8FirstConvolution() throws {
        guard graph.inputs.count == 1 else { throw InferenceError(.int8NeedsSingleInput(inputs: graph.inputs.count)) }
        let input = graph.inputs[0]
        let shape = shapes[input] ?? []
        guard graph.tensors[input].type == .float32, shape.count == 4, shape[0] == 1, shape[3] == 3 else {
            throw InferenceError(.int8InputShape(tensor(input), graph.tensors[input].type, shape: shape))
        }
        // Operators before it may only fold constants (DEQUANTIZE of fp16 weights).
        let readers = graph.operators.filter { $0.inputs.contains(input) }
        guard readers.count == 1, let first = readers.first, first.code == .conv2D, first.inputs.first == input,
              !graph.outputs.contains(input) else {
            throw InferenceError(.int8InputReaders(tensor(input), readers: readers.map(\.code)))
        }
    }

    /// Whether convolution `node` is planned as the int8 first convolution.
    func writesInt8FirstConvolution(_ node: Node, depthwise: Bool) -> Bool {
        firstConvolution == .int8 && !depthwise && node.inputs[0] == graph.inputs[0]
    }

    /// The step of the first convolution `node` (its activation fused),
    /// placing `Int8ConvolutionWeights`' block in the pool.
    mutating func int8Convolution(_ node: Node, weights: Int, bias: Int?, geometry: WindowGeometry,
                                  input: Int, output: Int) throws -> Step {
        guard node.residual == nil, node.second == .none else {
            throw InferenceError(.int8FusedAdd)
        }
        let (lower, upper): (Float, Float)
        switch node.first {
        case .none: (lower, upper) = (-.infinity, .infinity)
        case .relu: (lower, upper) = (0, .infinity)
        case .relu6: (lower, upper) = (0, 6)
        case .prelu: throw InferenceError(.int8Prelu)
        }
        let layout = Int8ConvolutionWeights(geometry)
        guard layout.windowBytes <= Int8ConvolutionWeights.largestWindowBytes else {
            throw InferenceError(.int8Window(height: geometry.kernelHeight, width: geometry.kernelWidth))
        }
        let table = pool.countingOnly
            ? pool.reserve(layout.count)
            : pool.append(layout.pack(try floats(weights), bias: try bias.map { try floats($0) } ?? [Float](repeating: 0, count: geometry.outChannels)))
        return .int8Convolution(.init(input: input, output: output, kernel: int8Kernel(), table: table, geometry: geometry,
                                      lower: lower, upper: upper))
    }
}
