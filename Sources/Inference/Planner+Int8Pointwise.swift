/// Planning `.int8` block projections (`PointwiseConvolution`).
extension Planner {
    /// Whether `node` runs as an int8 block projection: the plan asks for
    /// them, and it is a 1×1 convolution reading a depthwise convolution's
    /// output (`producers`: the node index writing each tensor), or any
    /// 1×1 convolution with `.int8Every`.
    func isInt8Pointwise(_ node: Node, in nodes: [Node], producers: [Int: Int]) -> Bool {
        guard pointwise != .float32, case let .convolution(_, _, depthwise, geometry) = node.kind, !depthwise, geometry.isPointwise,
              geometry.inChannels <= Int8PointwiseWeights.largestInputChannels else { return false }
        if pointwise == .int8Every { return true }
        guard let producer = producers[node.inputs[0]], case let .convolution(_, _, producerIsDepthwise, _) = nodes[producer].kind
        else { return false }
        return producerIsDepthwise
    }

    /// The step of block projection `node`, placing `Int8PointwiseWeights`' block in the pool.
    mutating func int8Pointwise(weights: Int, geometry: WindowGeometry, epilogue: Epilogue, input: Int, output: Int) throws -> Step {
        let layout = Int8PointwiseWeights(inChannels: geometry.inChannels, outChannels: geometry.outChannels)
        let table = pool.countingOnly ? pool.reserve(layout.count) : pool.append(layout.pack(try floats(weights)))
        return .int8Pointwise(.init(input: input, output: output, kernel: int8PointwiseKernel(), table: table,
                                    geometry: geometry, epilogue: epilogue))
    }
}
