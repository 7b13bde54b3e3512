import ArgumentParser
import Foundation
import Inference

/// `facepipe model run MODEL --input IN.f32 … --output OUT.f32 …`.
struct ModelRun: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run a model on raw little-endian float32 files, one per tensor in the subgraph's input/output order."
    )

    @Argument(help: "The .tflite file.")
    var model: String

    @Option(name: .customLong("input"), help: "Raw float32 input file; repeat in subgraph input order.")
    var inputs: [String] = []

    @Option(name: .customLong("output"), help: "Raw float32 output file to write; repeat in subgraph output order.")
    var outputs: [String] = []

    func run() throws {
        try ModelCommandSupport.guarded {
            let prepared = try ModelCommandSupport.loadModel(model)
            guard inputs.count == prepared.inputs.count else {
                throw ModelCommandError.tensorCount(flag: "--input", tensors: prepared.inputs, given: inputs.count)
            }
            guard outputs.count == prepared.outputs.count else {
                throw ModelCommandError.tensorCount(flag: "--output", tensors: prepared.outputs, given: outputs.count)
            }
            let values = try inputs.enumerated().map { try ModelCommandSupport.readTensor($1, for: prepared.inputs[$0], index: $0) }
            let results = try Interpreter(model: prepared).run(values)
            for (path, result) in zip(outputs, results) { try ModelCommandSupport.writeTensor(result, to: path) }
        }
    }
}
