import TFLite

/// Planning an `.int8` first convolution (`FirstConvolution`).
extension Planner {
    /// Checks that the graph's single input is a float `[1, H, W, 3]` read
    /// only by a CONV_2D (as its input): the layer whose input can be the picture's bytes.
    func checkInt8FirstConvolution() throws {
        let refusal = "an int8 first convolution needs a single [1, H, W, 3] FLOAT32 input read only by a CONV_2D"
        guard graph.inputs.count == 1 else { throw InferenceError("\(refusal); the model has \(graph.inputs.count) inputs") }
        let input = graph.inputs[0]
        let shape = shapes[input] ?? []
        guard graph.tensors[input].type == .float32, shape.count == 4, shape[0] == 1, shape[3] == 3 else {
            throw InferenceError("\(refusal); \(name(input)) is \(graph.tensors[input].type) \(shape)")
        }
        // Operators before it may only fold constants (DEQUANTIZE of fp16 weights).
        let readers = graph.operators.filter { $0.inputs.contains(input) }
        guard readers.count == 1, let first = readers.first, first.code == .conv2D, first.inputs.first == input,
              !graph.outputs.contains(input) else {
            throw InferenceError("\(refusal); \(name(input)) is read by \(readers.map { "\($0.code)" })")
        }
    }

    /// The step of the first convolution `node` (its activation fused),
    /// placing `Int8ConvolutionWeights`' block in the pool.
    mutating func int8Convolution(_ node: Node, weights: Int, bias: Int?, geometry: WindowGeometry,
                                  input: Int, output: Int) throws -> Step {
        let label = "the int8 first convolution"
        guard node.residual == nil, node.second == .none else {
            throw InferenceError("\(label) cannot take a fused ADD")
        }
        let (lower, upper): (Float, Float)
        switch node.first {
        case .none: (lower, upper) = (-.infinity, .infinity)
        case .relu: (lower, upper) = (0, .infinity)
        case .relu6: (lower, upper) = (0, 6)
        case .prelu: throw InferenceError("\(label) cannot apply a PRELU")
        }
        let layout = Int8ConvolutionWeights(geometry)
        guard layout.windowBytes <= Int8ConvolutionWeights.largestWindowBytes else {
            throw InferenceError("\(label): a \(geometry.kernelHeight)×\(geometry.kernelWidth) window is too large")
        }
        let table = pool.countingOnly
            ? pool.reserve(layout.count)
            : pool.append(layout.pack(try floats(weights), bias: try bias.map { try floats($0) } ?? [Float](repeating: 0, count: geometry.outChannels)))
        return .int8Convolution(.init(input: input, output: output, kernel: int8Kernel(), table: table, geometry: geometry,
                                      lower: lower, upper: upper))
    }
}
