/// Runs a `Model`. Owns one arena sized by the plan; `invoke` allocates
/// nothing. Not `Sendable`: create one interpreter per worker; they all share
/// the same read-only `Model`.
public final class Interpreter {
    public private(set) var model: Model
    private var memory: ArenaMemory
    private var arena: UnsafeMutablePointer<Float> { memory.base }

    public init(model: Model) throws {
        self.model = model
        memory = try ArenaMemory(floats: model.plan.arenaSize + Kernels.readSlack)
    }

    /// Runs `model` from now on (typically the same network `resized` to
    /// another input size), keeping the arena when it is large enough and
    /// growing it otherwise, so switching between sizes allocates only for
    /// the largest plan seen. Inputs must be written again after a switch.
    /// - Throws: `InferenceError` when a larger arena cannot be mapped (the
    ///   interpreter then keeps its previous model).
    public func switchModel(to model: Model) throws {
        let needed = model.plan.arenaSize + Kernels.readSlack
        if needed > memory.count { memory = try ArenaMemory(floats: needed) }
        self.model = model
    }

    /// Writes input `index` (subgraph input order) in place. Traps on an index out of range, like an array,
    /// and on a model planned with an `.int8` first convolution (see `withByteInput`).
    public func withInput<R>(_ index: Int, _ body: (UnsafeMutableBufferPointer<Float>) throws -> R) rethrows -> R {
        precondition(model.inputs.indices.contains(index), "input index \(index) out of range 0..<\(model.inputs.count)")
        precondition(model.firstConvolution == .float32, "a model planned with an int8 first convolution takes bytes: use withByteInput")
        return try body(UnsafeMutableBufferPointer(start: arena + model.plan.inputOffsets[index], count: model.inputs[index].elementCount))
    }

    /// Writes the `[1, H, W, C]` input's bytes (NHWC) of a model planned with
    /// an `.int8` first convolution (`FirstConvolution`), in place: the
    /// picture's bytes, which the float model would read as `p·(2/255) − 1`.
    /// Traps on a `.float32` model.
    public func withByteInput<R>(_ body: (UnsafeMutableBufferPointer<UInt8>) throws -> R) rethrows -> R {
        precondition(model.firstConvolution == .int8, "withByteInput needs a model planned with an int8 first convolution")
        let count = model.inputs[0].elementCount
        // The bytes take the first quarter of the input tensor's floats.
        return try (arena + model.plan.inputOffsets[0]).withMemoryRebound(to: UInt8.self, capacity: count) {
            try body(UnsafeMutableBufferPointer(start: $0, count: count))
        }
    }

    /// Reads output `index` (subgraph output order) after `invoke`.
    public func withOutput<R>(_ index: Int, _ body: (UnsafeBufferPointer<Float>) throws -> R) rethrows -> R {
        precondition(model.outputs.indices.contains(index), "output index \(index) out of range 0..<\(model.outputs.count)")
        return try body(UnsafeBufferPointer(start: arena + model.plan.outputOffsets[index], count: model.outputs[index].elementCount))
    }

    /// Runs every step of the plan on the current inputs.
    public func invoke() {
        for index in model.plan.steps.indices { invokeStep(index) }
    }

    /// Runs every step of the plan, handing each step's output to `observe`
    /// when it is floats: its tensor's name (`Model.stepOutputNames`) and
    /// values. For calibrating `ActivationGrids` on the float plan.
    package func invoke(observing observe: (_ name: String, _ values: UnsafeBufferPointer<Float>) -> Void) {
        for index in model.plan.steps.indices {
            invokeStep(index)
            let step = model.plan.steps[index]
            guard let (offset, count) = step.floatOutput else { continue }
            observe(model.plan.outputNames[index], UnsafeBufferPointer(start: arena + offset, count: count))
        }
    }

    /// Runs step `index` of the plan.
    @inline(__always)
    func invokeStep(_ index: Int) {
        model.plan.steps[index].run(arena: arena, constants: model.constants.base)
    }

    /// Copies `inputs` in (sizes checked), invokes, and returns copies of all outputs.
    public func run(_ inputs: [[Float]]) throws -> [[Float]] {
        guard model.firstConvolution == .float32 else {
            throw InferenceError(.needsByteInput)
        }
        guard inputs.count == model.inputs.count else {
            throw InferenceError(.inputCount(expected: model.inputs.count, got: inputs.count))
        }
        for (index, values) in inputs.enumerated() {
            let expected = model.inputs[index]
            guard values.count == expected.elementCount else {
                throw InferenceError(.inputSize(index: index, name: expected.name, shape: expected.shape, got: values.count))
            }
            withInput(index) { buffer in _ = buffer.update(from: values) }
        }
        invoke()
        return model.outputs.indices.map { index in withOutput(index) { Array($0) } }
    }

    /// Floats in this interpreter's arena (grows only in `switchModel`).
    public var arenaFloatCount: Int { memory.count }
}
