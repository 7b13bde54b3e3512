extension Planner {
    /// Places constants in the pool, lays out the arena and emits the steps.
    mutating func build(_ nodes: [Node]) throws -> (Plan, ConstantPool) {
        // Lifetimes over step indices; graph inputs and outputs live throughout.
        let end = nodes.count
        var first: [Int: Int] = [:], last: [Int: Int] = [:]
        for input in graph.inputs { first[input] = 0; last[input] = end }
        for (index, node) in nodes.enumerated() {
            first[node.output] = first[node.output] ?? index
            last[node.output] = max(last[node.output] ?? index, index)
            for input in node.inputs + (node.residual.map { [$0] } ?? []) {
                last[input] = max(last[input] ?? index, index)
            }
        }
        for output in graph.outputs { last[output] = end }
        var lifetimes: [ArenaLayout.Lifetime] = []
        for (tensor, start) in first {
            let elements = try Self.elementCount(shapes[tensor]!, of: self.tensor(tensor))
            // A byte tensor (`ActivationGrids`) takes a quarter of the floats.
            let size = byteGrids[tensor] == nil ? elements : (elements + 3) / 4
            lifetimes.append(.init(tensor: tensor, size: size, first: start, last: last[tensor]!))
        }
        let layout = ArenaLayout(lifetimes)
        guard layout.size <= Self.maximumElements else {
            throw InferenceError(.arenaTooLarge(floats: layout.size, limit: Self.maximumElements))
        }
        func at(_ tensor: Int) -> Int { layout.offsets[tensor]! }

        var producers: [Int: Int] = [:]
        for (index, node) in nodes.enumerated() { producers[node.output] = index }
        var steps: [Step] = []
        var outputNames: [String] = []
        for node in nodes {
            let output = at(node.output)
            let outShape = shapes[node.output]!
            let count = outShape.reduce(1, *)
            outputNames.append(tensor(node.output).name)
            let bytesIn = node.inputs.first.map { byteGrids[$0] != nil } ?? false
            switch node.kind {
            case let .convolution(weights, bias, depthwise, geometry) where bytesIn:
                steps.append(depthwise
                    ? try qs8Depthwise(node, weights: weights, bias: bias, geometry: geometry, input: at(node.inputs[0]), output: output)
                    : try qs8Pointwise(node, weights: weights, bias: bias, geometry: geometry, input: at(node.inputs[0]), output: output))
            case let .maxPool(geometry) where bytesIn:
                steps.append(.qs8MaxPool(.init(input: at(node.inputs[0]), output: output, geometry: geometry)))
            case .add where bytesIn:
                let o = byteGrids[node.output]!.step
                steps.append(.qs8Add(.init(lhs: at(node.inputs[0]), rhs: at(node.inputs[1]), output: output, count: count,
                                           lhsScale: byteGrids[node.inputs[0]]!.step / o, rhsScale: byteGrids[node.inputs[1]]!.step / o)))
            case .quantize:
                steps.append(.qs8Quantize(.init(input: at(node.inputs[0]), output: output, count: count,
                                                inverseStep: 1 / byteGrids[node.output]!.step)))
            case let .convolution(weights, bias, depthwise, geometry):
                if writesInt8FirstConvolution(node, depthwise: depthwise) {
                    var step = try int8Convolution(node, weights: weights, bias: bias, geometry: geometry,
                                                   input: at(node.inputs[0]), output: output)
                    if case var .int8Convolution(s) = step, let grid = byteGrids[node.output] {
                        s.outputStep = grid.step
                        step = .int8Convolution(s)
                    }
                    steps.append(step)
                    continue
                }
                let epilogue = Epilogue(
                    bias: try padded(bias.map { try floats($0) } ?? [Float](repeating: 0, count: geometry.outChannels)),
                    first: try place(node.first), residual: node.residual.map(at), residualChannels: node.residualChannels,
                    second: try place(node.second))
                let fusedAdd = node.residual != nil || node.second != .none
                let inC = geometry.inChannels
                if depthwise {
                    let kernel = depthwiseKernel(geometry, fusedAdd: fusedAdd)
                    let offset: Int
                    if pool.countingOnly {
                        offset = pool.reserve(kernel.packedCount(geometry))
                    } else {
                        let slopes: [Float]? = if case let .prelu(alpha) = node.first { try floats(alpha) } else { nil }
                        offset = pool.append(kernel.pack(try floats(weights), bias: try bias.map { try floats($0) } ?? [Float](repeating: 0, count: inC),
                                                         slopes: slopes, geometry))
                    }
                    steps.append(.depthwise(.init(input: at(node.inputs[0]), output: output, kernel: kernel, weights: offset,
                                                  geometry: geometry, epilogue: epilogue)))
                } else if isInt8Pointwise(node, in: nodes, producers: producers) {
                    steps.append(try int8Pointwise(weights: weights, geometry: geometry, epilogue: epilogue,
                                                   input: at(node.inputs[0]), output: output))
                } else {
                    let kernel = convolutionKernel(geometry, fusedAdd: fusedAdd)
                    let offset = pool.countingOnly
                        ? pool.reserve(kernel.packedCount(geometry)) : pool.append(kernel.pack(try floats(weights), geometry))
                    steps.append(.convolution(.init(input: at(node.inputs[0]), output: output, kernel: kernel, weights: offset,
                                                    geometry: geometry, epilogue: epilogue)))
                }
            case let .maxPool(geometry):
                steps.append(.maxPool(.init(input: at(node.inputs[0]), output: output, kernel: maxPoolKernel(geometry), geometry: geometry)))
            case .add:
                steps.append(.add(.init(lhs: at(node.inputs[0]), rhs: at(node.inputs[1]), output: output, count: count,
                                        activation: try place(node.first), channels: outShape.last!)))
            case .activation:
                steps.append(.activation(.init(input: at(node.inputs[0]), output: output, count: count,
                                               activation: try place(node.first), channels: outShape.last!)))
            case let .pad(before):
                let s = shapes[node.inputs[0]]!
                steps.append(.pad(.init(input: at(node.inputs[0]), output: output, inShape: (s[0], s[1], s[2], s[3]),
                                        before: (before[0], before[1], before[2], before[3]),
                                        outShape: (outShape[0], outShape[1], outShape[2], outShape[3]))))
            case .copy:
                steps.append(.copy(.init(input: at(node.inputs[0]), output: output, count: count)))
            case let .concatenation(axis):
                let outer = outShape[..<axis].reduce(1, *)
                let inputs = node.inputs.map { (offset: at($0), chunk: shapes[$0]![axis...].reduce(1, *)) }
                steps.append(.concatenation(.init(inputs: inputs, output: output, outer: outer)))
            case let .resizeBilinear(alignCorners, halfPixelCenters):
                let s = shapes[node.inputs[0]]!
                steps.append(.resizeBilinear(.init(input: at(node.inputs[0]), output: output, inHeight: s[1], inWidth: s[2], channels: s[3],
                                                   outHeight: outShape[1], outWidth: outShape[2],
                                                   alignCorners: alignCorners, halfPixelCenters: halfPixelCenters)))
            case let .resizeNearestNeighbor(alignCorners, halfPixelCenters):
                let s = shapes[node.inputs[0]]!
                steps.append(.resizeNearestNeighbor(.init(input: at(node.inputs[0]), output: output, inHeight: s[1], inWidth: s[2], channels: s[3],
                                                          outHeight: outShape[1], outWidth: outShape[2],
                                                          alignCorners: alignCorners, halfPixelCenters: halfPixelCenters, bytes: bytesIn)))
            case let .depthToSpace(block):
                let s = shapes[node.inputs[0]]!
                steps.append(.depthToSpace(.init(input: at(node.inputs[0]), output: output, inHeight: s[1], inWidth: s[2], inChannels: s[3], block: block)))
            }
        }
        statistics.arenaFloats = layout.size
        statistics.steps = steps.count
        // AVX-512 depthwise steps share one scratch region after every tensor (no allocation per invocation).
        var scratchFloats = 0
        for index in steps.indices {
            guard case var .depthwise(d) = steps[index], d.kernel == .dwconv3x3s1_4rows_avx512 else { continue }
            d.scratch = layout.size
            scratchFloats = max(scratchFloats, Kernels.depthwise3x3s1AVX512Scratch(d.geometry))
            steps[index] = .depthwise(d)
        }
        let plan = Plan(steps: steps, arenaSize: layout.size + (scratchFloats + 15) / 16 * 16,
                        inputOffsets: graph.inputs.map(at), firstConvolution: firstConvolution, pointwise: pointwise, grids: grids,
                        outputNames: outputNames, outputOffsets: graph.outputs.map(at))
        if let sharedConstants {
            guard pool.count + Kernels.readSlack == sharedConstants.count else {
                throw InferenceError(.sharedConstantsDiffer(planned: pool.count, shared: sharedConstants.count - Kernels.readSlack))
            }
            return (plan, sharedConstants)
        }
        return (plan, ConstantPool(pool))
    }

    /// Appends `values` zero-padded to a multiple of 8.
    mutating func padded(_ values: [Float]) throws -> Int {
        pool.append(values + [Float](repeating: 0, count: (8 - values.count % 8) % 8))
    }

    mutating func place(_ activation: PendingActivation) throws -> Activation {
        switch activation {
        case .none: .none
        case .relu: .relu
        case .relu6: .relu6
        case let .prelu(alpha): .prelu(alpha: try padded(try floats(alpha)))
        }
    }
}
