extension Planner {
    /// Folds into each convolution's epilogue the chain of single-consumer
    /// operators that follows it: an activation, then an ADD whose other operand
    /// already exists when the convolution runs, then an activation.
    func fuse(_ nodes: inout [Node]) {
        var consumers = [Int](repeating: 0, count: graph.tensors.count)
        var producer = [Int: Int]()
        for (index, node) in nodes.enumerated() {
            for input in node.inputs { consumers[input] += 1 }
            producer[node.output] = index
        }
        for output in graph.outputs { consumers[output] += 1 }
        var readers = [Int: Int]()
        for (index, node) in nodes.enumerated() {
            for input in node.inputs where readers[input] == nil { readers[input] = index }
        }

        for index in nodes.indices {
            guard case .convolution = nodes[index].kind else { continue }
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
                    let other = candidate.inputs[0] == output ? candidate.inputs[1] : candidate.inputs[0]
                    // The other operand must exist before the convolution runs.
                    if let source = producer[other], source >= index { break }
                    fused.residual = other
                    fused.second = candidate.first
                default:
                    break
                }
                guard fused.output == output, fused.first != nodes[index].first || fused.second != nodes[index].second || fused.residual != nodes[index].residual else { break }
                fused.output = candidate.output
                nodes[index] = fused
                nodes[next].removed = true
                producer[candidate.output] = index
                if let residual = fused.residual, candidate.inputs.contains(residual) {
                    // The residual is now read by the convolution, earlier than before.
                    readers[residual] = min(readers[residual] ?? index, index)
                }
            }
        }
        nodes.removeAll { $0.removed }
    }
}
