import TFLite

extension Operators {
    /// RESHAPE of a computed tensor: a copy. The target is the declared
    /// output shape, else the options' new shape, else the constant second
    /// input; in a resized plan the dimension holding the spatial extent follows the new size.
    enum Reshape: OperatorPreparation {
        static let codes: [BuiltinOperator] = [.reshape]

        static func prepare(_ context: inout OperatorContext) throws -> Node? {
            let input = try context.activationInput(0)
            var target = context.declared(context.output).shape
            if target.isEmpty, case let .reshape(newShape?) = context.op.options { target = newShape }
            if target.isEmpty, let shapeInput = try context.optionalOperand(1) { target = try context.int32s(shapeInput) }
            if context.planner.resized { target = try resizedTarget(context, declared: target, input: input) }
            let count = try Planner.elementCount(context.shape(input), of: context.tensor(input))
            guard target.allSatisfy({ $0 >= 0 }), (try? Planner.elementCount(target, of: context.tensor(context.output))) == count else {
                throw InferenceError(.reshape(from: context.shape(input), to: target))
            }
            try context.setFloat32Output(target)
            return Node(kind: .copy, inputs: [input], output: context.output)
        }

        /// The target of a resized plan: the declared target with the one
        /// dimension that holds the input's spatial extent (a multiple of the
        /// declared H·W, e.g. 2304 anchors of a 48×48 map) scaled to the new H·W.
        static func resizedTarget(_ context: OperatorContext, declared target: [Int], input: Int) throws -> [Int] {
            let actual = context.shape(input), declaredIn = context.declared(input).shape
            guard actual != declaredIn else { return target }
            guard actual.count == 4, declaredIn.count == 4, actual[0] == declaredIn[0], actual[3] == declaredIn[3] else {
                throw InferenceError(.reshapeCannotFollow(context.tensor(input), declared: declaredIn, actual: actual, target: target))
            }
            let declaredSpatial = declaredIn[1] * declaredIn[2]
            let absorbing = target.indices.filter { declaredSpatial > 1 && target[$0] > 0 && target[$0] % declaredSpatial == 0 }
            guard absorbing.count == 1 else {
                throw InferenceError(.reshapeAmbiguous(context.tensor(input), declared: declaredIn, actual: actual, target: target,
                                                       candidates: absorbing.count))
            }
            var resizedTarget = target
            resizedTarget[absorbing[0]] = target[absorbing[0]] / declaredSpatial * (actual[1] * actual[2])
            return resizedTarget
        }
    }
}
