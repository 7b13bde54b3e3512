import TFLite

/// What an operator's preparation sees: the operator, the one tensor it
/// writes, and the planner's shapes and constants, through checks shared
/// by every operator (an operand exists and was written before; an image is
/// `[1, H, W, C]`; the inferred output matches the file's declaration).
struct OperatorContext {
    let op: TFLiteOperator
    /// The single tensor the operator writes (not yet written or constant).
    let output: Int
    /// The planner, moved in for the operator and handed back after it.
    var planner: Planner

    /// - Throws: `InferenceError` when the operator does not write exactly
    ///   one tensor, or writes one that already has a value.
    init(_ op: TFLiteOperator, planner: Planner) throws {
        guard op.outputs.count == 1 else { throw InferenceError(.outputCount(op.outputs.count)) }
        guard planner.shapes[op.outputs[0]] == nil else { throw InferenceError(.writesExisting(planner.tensor(op.outputs[0]))) }
        self.op = op
        output = op.outputs[0]
        self.planner = planner
    }

    // MARK: Operands

    func tensor(_ index: Int) -> TensorReference { planner.tensor(index) }

    /// The declared tensor `index` of the file.
    func declared(_ index: Int) -> TFLiteTensor { planner.graph.tensors[index] }

    /// The inferred shape of a tensor returned by `operand`.
    func shape(_ index: Int) -> [Int] { planner.shapes[index]! }

    func isConstant(_ index: Int) -> Bool { planner.isConstant(index) }

    /// Input `position`, which must exist and have a value (constant, graph input or earlier output).
    func operand(_ position: Int) throws -> Int {
        guard position < op.inputs.count, op.inputs[position] >= 0 else { throw InferenceError(.missingInput(position: position)) }
        let index = op.inputs[position]
        guard planner.shapes[index] != nil else { throw InferenceError(.readsUnwritten(tensor(index))) }
        return index
    }

    /// Input `position` when the operator has it (an optional bias); nil when absent or -1.
    func optionalOperand(_ position: Int) throws -> Int? {
        position < op.inputs.count && op.inputs[position] >= 0 ? try operand(position) : nil
    }

    /// Input `position`, which must be computed (a graph input or an earlier output), not a constant.
    func activationInput(_ position: Int) throws -> Int {
        let index = try operand(position)
        guard !isConstant(index) else { throw InferenceError(.constantOperand(tensor(index))) }
        return index
    }

    /// Height, width and channels of a `[1, H, W, C]` tensor.
    func image(_ index: Int) throws -> (height: Int, width: Int, channels: Int) {
        let s = shape(index)
        guard s.count == 4, s[0] == 1 else { throw InferenceError(.notAnImage(tensor(index), shape: s)) }
        return (s[1], s[2], s[3])
    }

    /// The values of a constant INT32 operand (paddings, sizes).
    func int32s(_ index: Int) throws -> [Int] { try planner.int32s(index) }

    /// The engine's activation for a fused one (NONE, RELU, RELU6).
    func activation(_ fused: FusedActivation) throws -> PendingActivation {
        switch fused {
        case .none: return .none
        case .relu: return .relu
        case .relu6: return .relu6
        default: throw InferenceError(.fusedActivation(fused))
        }
    }

    // MARK: The output

    /// Records `inferred` as the output's shape after checking it against the
    /// declared one (only the rank when the plan is resized) and its size.
    mutating func setOutput(_ inferred: [Int]) throws {
        let declaredShape = declared(output).shape
        // A resized plan changes spatial sizes everywhere: only the rank must still match.
        let matches = planner.resized ? declaredShape.count == inferred.count : declaredShape == inferred
        guard declaredShape.isEmpty || matches else {
            throw InferenceError(.outputShape(tensor(output), declared: declaredShape, inferred: inferred))
        }
        _ = try Planner.elementCount(inferred, of: tensor(output))
        planner.shapes[output] = inferred
    }

    /// Checks that the output is FLOAT32 (every computed tensor is), then sets its shape.
    mutating func setFloat32Output(_ inferred: [Int]) throws {
        let type = declared(output).type
        guard type == .float32 else { throw InferenceError(.outputType(tensor(output), type)) }
        try setOutput(inferred)
    }

    /// Makes the output a constant holding `values` (a folded operator).
    mutating func fold(_ values: [Float]) {
        planner.folded[output] = values
    }
}
