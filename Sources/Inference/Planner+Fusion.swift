extension Planner {
    /// Folds into each convolution's epilogue the chain of single-consumer
    /// operators that follows it: an activation, then an ADD, then an activation.
    /// The fused convolution runs where the last fused operator ran: its own
    /// inputs exist there already, and so does the ADD's other operand.
    func fuse(_ nodes: inout [Node]) {
        var consumers = [Int](repeating: 0, count: graph.tensors.count)
        for node in nodes {
            for input in node.inputs { consumers[input] += 1 }
        }
        for output in graph.outputs { consumers[output] += 1 }
        var readers = [Int: Int]()
        for (index, node) in nodes.enumerated() {
            for input in node.inputs where readers[input] == nil { readers[input] = index }
        }

        for start in nodes.indices {
            guard case .convolution = nodes[start].kind, !nodes[start].removed else { continue }
            var index = start
            while true {
                let output = nodes[index].output
                guard consumers[output] == 1, let next = readers[output], next > index, !nodes[next].removed else { break }
                let candidate = nodes[next]
                var fused = nodes[index]
                switch candidate.kind {
                case .activation:
                    if fused.residual == nil, fused.first == .none {
                        fused.first = candidate.first
                    } else if fused.residual != nil, fused.second == .none {
                        fused.second = candidate.first
                    } else {
                        break
                    }
                case .add:
                    guard fused.residual == nil, candidate.inputs[0] != candidate.inputs[1] else { break }
                    fused.residual = candidate.inputs[0] == output ? candidate.inputs[1] : candidate.inputs[0]
                    fused.second = candidate.first
                default:
                    break
                }
                guard fused.output == output, fused.first != nodes[index].first || fused.second != nodes[index].second || fused.residual != nodes[index].residual else { break }
                fused.output = candidate.output
                nodes[next] = fused
                nodes[index].removed = true
                index = next
            }
        }
        foldChannelPads(&nodes, consumers: consumers)
        nodes.removeAll { $0.removed }
    }

    /// Where 1×1 convolutions run `conv1x1_8x32_avx512` or as int8 block
    /// projections (`Int8PointwiseKernel`), one whose fused
    /// residual is a PAD that only appends zero channels (BlazeFace's skip
    /// connections, e.g. 24 → 28) reads the PAD's input instead, adding zero
    /// to the extra channels (`Conv1x1AVX512`); the PAD step goes. Same sums, so the same
    /// bits as adding the padded tensor.
    private func foldChannelPads(_ nodes: inout [Node], consumers: [Int]) {
        guard kernels == .avx512 || pointwise != .float32 else { return }
        var producer = [Int: Int]()
        for (index, node) in nodes.enumerated() where !node.removed { producer[node.output] = index }
        for index in nodes.indices where !nodes[index].removed {
            guard case let .convolution(_, _, depthwise, geometry) = nodes[index].kind, !depthwise, geometry.isPointwise,
                  convolutionKernel(geometry, fusedAdd: true) == .conv1x1_8x32_avx512
                    || isInt8Pointwise(nodes[index], in: nodes, producers: producer),
                  let residual = nodes[index].residual, consumers[residual] == 1,
                  nodes[index].second == .none || nodes[index].second == .relu,
                  let padIndex = producer[residual], padIndex < index,
                  case let .pad(before) = nodes[padIndex].kind, before.allSatisfy({ $0 == 0 }),
                  let source = nodes[padIndex].inputs.first,
                  let inShape = shapes[source], let outShape = shapes[residual],
                  inShape.count == 4, outShape.count == 4, inShape.dropLast() == outShape.dropLast(),
                  inShape[3] < outShape[3]
            else { continue }
            nodes[index].residual = source
            nodes[index].residualChannels = inShape[3]
            nodes[padIndex].removed = true
        }
    }
}
