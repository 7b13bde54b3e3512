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
        nodes.removeAll { $0.removed }
    }
}
