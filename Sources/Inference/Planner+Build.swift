import InferenceWide

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
            lifetimes.append(.init(tensor: tensor, size: try Self.elementCount(shapes[tensor]!, name(tensor)), first: start, last: last[tensor]!))
        }
        let layout = ArenaLayout(lifetimes)
        guard layout.size <= Self.maximumElements else {
            throw InferenceError("the model needs an arena of \(layout.size) floats, more than \(Self.maximumElements)")
        }
        func at(_ tensor: Int) -> Int { layout.offsets[tensor]! }

        var steps: [Step] = []
        for node in nodes {
            let output = at(node.output)
            let outShape = shapes[node.output]!
            let count = outShape.reduce(1, *)
            switch node.kind {
            case let .convolution(weights, bias, depthwise, geometry):
                let epilogue = Epilogue(
                    bias: try padded(bias.map { try floats($0) } ?? [Float](repeating: 0, count: geometry.outChannels)),
                    first: try place(node.first), residual: node.residual.map(at), residualChannels: node.residualChannels,
                    second: try place(node.second))
                let offset: Int
                let wide = !depthwise && geometry.isPointwise && kernels == .lanes16
                // A 24-channel windowed convolution without a fused ADD: its interior runs in WideWindowed24.
                let wideWindowed = !depthwise && !geometry.isPointwise && kernels == .lanes16
                    && geometry.outChannels == WideWindowed24.outputChannels && epilogue.residual == nil && epilogue.second == .none
                // 16- or 32-channel windowed convolutions likewise, in WideWindowedBlocks.
                let wideBlocks = !depthwise && !geometry.isPointwise && kernels == .lanes16
                    && WideWindowedBlocks.handles(outputChannels: geometry.outChannels) && epilogue.residual == nil && epilogue.second == .none
                let taps = geometry.kernelHeight * geometry.kernelWidth * geometry.inChannels
                // A stride-1 3×3 depthwise without a fused ADD: its row interiors run in WideDepthwise3x3.
                let wideDepthwise = depthwise && kernels == .lanes16 && geometry.kernelHeight == 3 && geometry.kernelWidth == 3
                    && geometry.strideHeight == 1 && geometry.strideWidth == 1 && epilogue.residual == nil && epilogue.second == .none
                var wideOffset: Int?
                let (inC, outC) = (geometry.inChannels, geometry.outChannels)
                if pool.countingOnly {
                    offset = pool.reserve(depthwise ? Self.packedDepthwiseCount(geometry) : Self.packedConvolutionCount(geometry))
                    if wide { wideOffset = pool.reserve(WidePointwise.packedCount(inChannels: inC, outChannels: outC)) }
                    if wideWindowed { wideOffset = pool.reserve(WideWindowed24.packedCount(taps: taps)) }
                    if wideBlocks { wideOffset = pool.reserve(WidePointwise.packedCount(inChannels: taps, outChannels: outC)) }
                    if wideDepthwise { wideOffset = pool.reserve(WideDepthwise3x3.packedCount(channels: inC)) }
                } else {
                    let values = try floats(weights)
                    offset = pool.append(depthwise ? Self.packDepthwise(values, geometry) : Self.packConvolution(values, geometry))
                    if wide { wideOffset = pool.append(WidePointwise.pack(values, inChannels: inC, outChannels: outC)) }
                    if wideWindowed { wideOffset = pool.append(WideWindowed24.pack(values, taps: taps)) }
                    if wideBlocks { wideOffset = pool.append(WidePointwise.pack(values, inChannels: taps, outChannels: outC)) }
                    if wideDepthwise {
                        let slopes: [Float]? = if case let .prelu(alpha) = node.first { try floats(alpha) } else { nil }
                        wideOffset = pool.append(WideDepthwise3x3.pack(
                            weights: values, bias: try bias.map { try floats($0) } ?? [Float](repeating: 0, count: inC),
                            slopes: slopes, channels: inC))
                    }
                }
                if depthwise {
                    steps.append(.depthwise(.init(input: at(node.inputs[0]), output: output, weights: offset, wideTable: wideOffset,
                                                  geometry: geometry, epilogue: epilogue)))
                } else {
                    steps.append(.convolution(.init(input: at(node.inputs[0]), output: output, weights: offset,
                                                    wideWeights: wideOffset, geometry: geometry, epilogue: epilogue)))
                }
            case let .maxPool(geometry):
                steps.append(.maxPool(.init(input: at(node.inputs[0]), output: output, geometry: geometry)))
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
            case let .depthToSpace(block):
                let s = shapes[node.inputs[0]]!
                steps.append(.depthToSpace(.init(input: at(node.inputs[0]), output: output, inHeight: s[1], inWidth: s[2], inChannels: s[3], block: block)))
            }
        }
        statistics.arenaFloats = layout.size
        statistics.steps = steps.count
        // Wide depthwise steps share one scratch region after every tensor (no allocation per invocation).
        var scratchFloats = 0
        for index in steps.indices {
            guard case var .depthwise(d) = steps[index], d.wideTable != nil else { continue }
            d.scratch = layout.size
            scratchFloats = max(scratchFloats, Kernels.wideDepthwiseScratch(d.geometry))
            steps[index] = .depthwise(d)
        }
        let plan = Plan(steps: steps, arenaSize: layout.size + (scratchFloats + 15) / 16 * 16,
                        inputOffsets: graph.inputs.map(at), outputOffsets: graph.outputs.map(at))
        if let sharedConstants {
            guard pool.count + Kernels.readSlack == sharedConstants.count else {
                throw InferenceError("re-planned constants take \(pool.count) floats, the original plan's \(sharedConstants.count - Kernels.readSlack)")
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

    static func packedConvolutionCount(_ g: WindowGeometry) -> Int {
        (g.outChannels + 7) / 8 * g.kernelHeight * g.kernelWidth * g.inChannels * 8
    }

    static func packedDepthwiseCount(_ g: WindowGeometry) -> Int {
        g.kernelHeight * g.kernelWidth * ((g.inChannels + 7) / 8 * 8)
    }

    /// `[O][KH][KW][I]` → `[ceil(O/8)][KH][KW][I][8]`, zero beyond O.
    static func packConvolution(_ weights: [Float], _ g: WindowGeometry) -> [Float] {
        let taps = g.kernelHeight * g.kernelWidth
        let perOutput = taps * g.inChannels
        var packed = [Float](repeating: 0, count: packedConvolutionCount(g))
        for o in 0..<g.outChannels {
            let block = o / 8, lane = o % 8
            for k in 0..<perOutput {
                packed[(block * perOutput + k) * 8 + lane] = weights[o * perOutput + k]
            }
        }
        return packed
    }

    /// `[1][KH][KW][C]` → `[KH][KW][roundUp8(C)]`, zero beyond C.
    static func packDepthwise(_ weights: [Float], _ g: WindowGeometry) -> [Float] {
        let channels = g.inChannels
        let padded = (channels + 7) / 8 * 8
        let taps = g.kernelHeight * g.kernelWidth
        var packed = [Float](repeating: 0, count: packedDepthwiseCount(g))
        for tap in 0..<taps {
            for c in 0..<channels { packed[tap * padded + c] = weights[tap * channels + c] }
        }
        return packed
    }
}
