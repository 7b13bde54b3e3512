import Foundation
import TFLite

/// A TFLite model prepared for execution: parsed, validated, weights
/// dequantized, densified and packed once. Read-only after `init`, so one
/// `Model` is shared by all interpreters on all threads.
public final class Model: Sendable {
    public let inputs: [TensorDescription]
    public let outputs: [TensorDescription]
    /// Operator counts, MACs, parameters and arena size.
    public let statistics: ModelStatistics
    let plan: Plan
    let constants: ConstantPool

    /// Reads the file at `url`; throws `InferenceError` when it cannot be read,
    /// `ModelError` when it is malformed, `InferenceError` when it needs an
    /// operator, type or shape the engine does not support.
    public convenience init(contentsOf url: URL) throws {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw InferenceError("cannot read model \(url.path): \(error.localizedDescription)")
        }
        try self.init(bytes: [UInt8](data))
    }

    public init(bytes: [UInt8]) throws {
        let file = try TFLiteModel(bytes: bytes)
        var planner = try Planner(file: file)
        (plan, constants) = try planner.plan()
        statistics = planner.statistics
        let graph = file.subgraphs[0]
        inputs = graph.inputs.map { TensorDescription(name: graph.tensors[$0].name, shape: planner.shapes[$0]!) }
        outputs = graph.outputs.map { TensorDescription(name: graph.tensors[$0].name, shape: planner.shapes[$0]!) }
    }
}
