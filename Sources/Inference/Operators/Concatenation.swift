import TFLite

extension Operators {
    /// CONCATENATION of computed tensors along one axis, without a fused activation.
    enum Concatenation: OperatorPreparation {
        static let codes: [BuiltinOperator] = [.concatenation]

        static func prepare(_ context: inout OperatorContext) throws -> Node? {
            guard case let .concatenation(axisOption, fused) = context.op.options else { throw InferenceError(.missingOptions) }
            guard fused == .none else { throw InferenceError(.fusedActivation(fused)) }
            guard !context.op.inputs.isEmpty else { throw InferenceError(.noInputs) }
            let inputs = try context.op.inputs.indices.map { try context.activationInput($0) }
            let first = context.shape(inputs[0])
            let axis = axisOption < 0 ? axisOption + first.count : axisOption
            guard axis >= 0, axis < first.count else { throw InferenceError(.axis(axisOption, rank: first.count)) }
            var outShape = first
            outShape[axis] = 0
            for input in inputs {
                let s = context.shape(input)
                guard s.count == first.count, s.indices.allSatisfy({ $0 == axis || s[$0] == first[$0] }) else {
                    throw InferenceError(.concatenationShapes(first, s, axis: axis))
                }
                outShape[axis] += s[axis]
            }
            try context.setFloat32Output(outShape)
            return Node(kind: .concatenation(axis: axis), inputs: inputs, output: context.output)
        }
    }
}
