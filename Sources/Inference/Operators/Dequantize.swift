import TFLite

extension Operators {
    /// DEQUANTIZE of a FLOAT16 constant (or of a DENSIFY's folded output):
    /// folded into a float constant, never run.
    enum Dequantize: OperatorPreparation {
        static let codes: [BuiltinOperator] = [.dequantize]

        static func prepare(_ context: inout OperatorContext) throws -> Node? {
            let input = try context.operand(0)
            let declared = context.declared(input)
            guard context.isConstant(input) else { throw InferenceError(.dequantizeNonConstant(context.tensor(input))) }
            let values: [Float]
            if let densified = context.planner.folded[input] {
                values = densified
            } else {
                guard declared.type == .float16 else { throw InferenceError(.dequantizeType(context.tensor(input), declared.type)) }
                let data = context.planner.file.data(ofBuffer: declared.buffer)
                let count = try Planner.elementCount(context.shape(input), of: context.tensor(input))
                guard data.count == count * 2 else {
                    throw InferenceError(.byteCount(context.tensor(input), bytes: data.count, values: count, type: .float16))
                }
                values = Float16Conversion.decode(data)
            }
            try context.setFloat32Output(context.shape(input))
            context.fold(values)
            return nil
        }
    }
}
