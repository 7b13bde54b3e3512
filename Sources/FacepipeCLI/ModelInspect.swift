import ArgumentParser
import Foundation
import Inference
import TFLite

/// `facepipe model inspect MODEL`: operators, tensors, parameters and MACs.
struct ModelInspect: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inspect",
        abstract: "Print a model's operators with counts, tensors with shapes and types, parameters and MACs."
    )

    @Argument(help: "The .tflite file.")
    var model: String

    @Flag(help: "Omit the tensor table.")
    var noTensors = false

    func run() throws {
        try ModelCommandSupport.guarded {
            let bytes = try ModelCommandSupport.readBytes(model, what: "model")
            let file = try TFLiteModel(bytes: bytes)
            let graph = file.subgraphs[0]
            print("model: \(model) (\(bytes.count) bytes, schema v\(file.version), \(file.subgraphs.count) subgraph\(file.subgraphs.count == 1 ? "" : "s"))")
            if !file.description.isEmpty { print("description: \(file.description)") }
            for (label, list) in [("input", graph.inputs), ("output", graph.outputs)] {
                for (k, tensor) in list.enumerated() {
                    let t = graph.tensors[tensor]
                    print("\(label) \(k): \(t.name) \(ModelCommandSupport.shape(t.shape)) \(t.type)")
                }
            }

            var counts: [(String, Int)] = []
            for op in graph.operators {
                if let i = counts.firstIndex(where: { $0.0 == op.code.name }) { counts[i].1 += 1 } else { counts.append((op.code.name, 1)) }
            }
            print("operators: \(graph.operators.count)")
            for (name, count) in counts.sorted(by: { ($0.1, $1.0) > ($1.1, $0.0) }) {
                print("  \(name.padding(toLength: 20, withPad: " ", startingAt: 0)) \(count)")
            }

            if !noTensors {
                print("tensors: \(graph.tensors.count)")
                for (index, t) in graph.tensors.enumerated() {
                    let data = file.data(ofBuffer: t.buffer)
                    let kind = t.sparsity != nil ? "sparse constant" : data.isEmpty ? "activation" : "constant"
                    print("  \(String(index).leftPad(4)) \(t.type.description.padding(toLength: 8, withPad: " ", startingAt: 0)) \(ModelCommandSupport.shape(t.shape).padding(toLength: 20, withPad: " ", startingAt: 0)) \(kind.padding(toLength: 16, withPad: " ", startingAt: 0)) \(t.name)")
                }
            }

            let prepared = try Model(bytes: bytes, kernels: KernelSelection.kernels())
            let stats = prepared.statistics
            print("parameters: \(stats.parameters) (convolution weights and biases, float32 after dequantize/densify)")
            print("macs: \(stats.multiplyAccumulates) (\(String(format: "%.1f", Double(stats.multiplyAccumulates) / 1e6)) M per invocation)")
            print("engine: \(stats.steps) steps after fusion, arena \(stats.arenaFloats) floats (\(stats.arenaFloats * 4 / 1024) KiB)")
        }
    }
}

extension String {
    func leftPad(_ width: Int) -> String { count >= width ? self : String(repeating: " ", count: width - count) + self }
}
