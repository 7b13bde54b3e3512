import TFLite

extension Planner {
    /// Prepares operator `index` by its own `OperatorPreparation`
    /// (`Operators/`): validated, its output shape inferred, folded when it
    /// only transforms constants. Returns the node to execute (nil when folded).
    /// - Throws: `InferenceError` naming the operator; `.unsupportedOperator`
    ///   when the engine has no preparation for its code.
    mutating func prepare(_ op: TFLiteOperator, index: Int) throws -> Node? {
        let reference = OperatorReference(index: index, code: op.code)
        statistics.count(op.code.name)
        do {
            guard let preparation = Operators.preparation(for: op.code) else { throw InferenceError(.unsupportedOperator(op.code)) }
            var context = try OperatorContext(op, planner: self)
            let node = try preparation.prepare(&context)
            self = context.planner
            return node
        } catch var error as InferenceError {
            error.operator = error.operator ?? reference
            throw error
        }
    }
}
