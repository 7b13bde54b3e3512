import TFLite

extension Operators {
    /// DENSIFY of a sparse FLOAT16 or FLOAT32 constant (TFLite
    /// `SparsityParameters`, no block sparsity): folded into its dense
    /// row-major values, every segment and index range-checked.
    enum Densify: OperatorPreparation {
        static let codes: [BuiltinOperator] = [.densify]

        static func prepare(_ context: inout OperatorContext) throws -> Node? {
            let input = try context.operand(0)
            let declared = context.declared(input), tensor = context.tensor(input)
            guard let sparsity = declared.sparsity else { throw InferenceError(.noSparsity(tensor)) }
            let data = context.planner.file.data(ofBuffer: declared.buffer)
            let values: [Float]
            switch declared.type {
            case .float16 where data.count % 2 == 0: values = Float16Conversion.decode(data)
            case .float32 where data.count % 4 == 0: values = Float16Conversion.decodeFloat32(data)
            default: throw InferenceError(.densifyType(tensor, declared.type, bytes: data.count))
            }
            let shape = context.shape(input)
            _ = try Planner.elementCount(shape, of: tensor)
            try context.setOutput(shape)
            context.fold(try dense(values: values, sparsity: sparsity, shape: shape, tensor: tensor))
            return nil
        }

        static func dense(values: [Float], sparsity: Sparsity, shape: [Int], tensor: TensorReference) throws -> [Float] {
            let rank = shape.count
            guard sparsity.blockMap.isEmpty, sparsity.dimensions.count == rank, sparsity.traversalOrder.count == rank,
                  Set(sparsity.traversalOrder) == Set(0..<rank)
            else {
                throw InferenceError(.sparsityLayout(tensor, rank: rank))
            }
            let total = shape.reduce(1, *)
            var dense = [Float](repeating: 0, count: total)
            var strides = [Int](repeating: 1, count: rank)
            for d in stride(from: rank - 2, through: 0, by: -1) { strides[d] = strides[d + 1] * shape[d + 1] }

            // Depth-first walk in traversal order. `position` is the entry index in the current level,
            // `offset` the dense offset accumulated so far.
            func walk(level: Int, position: Int, offset: Int) throws {
                if level == rank {
                    guard position >= 0, position < values.count else {
                        throw InferenceError(.sparseValueIndex(tensor, index: position, count: values.count))
                    }
                    dense[offset] = values[position]
                    return
                }
                let dim = sparsity.traversalOrder[level]
                switch sparsity.dimensions[level] {
                case let .dense(size):
                    guard size == shape[dim] else { throw InferenceError(.sparseDenseSize(tensor, size: size, dimension: shape[dim])) }
                    for i in 0..<size { try walk(level: level + 1, position: position * size + i, offset: offset + i * strides[dim]) }
                case let .sparseCSR(segments, indices):
                    guard position + 1 < segments.count else {
                        throw InferenceError(.missingSegment(tensor, position: position, bounds: segments.count))
                    }
                    let start = segments[position], end = segments[position + 1]
                    guard start >= 0, start <= end, end <= indices.count else {
                        throw InferenceError(.sparseSegment(tensor, start: start, end: end, indices: indices.count))
                    }
                    for k in start..<end {
                        let coordinate = indices[k]
                        guard coordinate >= 0, coordinate < shape[dim] else {
                            throw InferenceError(.sparseIndex(tensor, index: coordinate, dimension: shape[dim]))
                        }
                        try walk(level: level + 1, position: k, offset: offset + coordinate * strides[dim])
                    }
                }
            }
            try walk(level: 0, position: 0, offset: 0)
            return dense
        }
    }
}
