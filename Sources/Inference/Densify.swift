import TFLite

/// Expands a sparse constant (TFLite `SparsityParameters`, no block sparsity)
/// into its dense row-major values. Every segment and index is range-checked.
enum Densify {
    static func dense(values: [Float], sparsity: Sparsity, shape: [Int], tensor: String) throws -> [Float] {
        let rank = shape.count
        guard sparsity.blockMap.isEmpty, sparsity.dimensions.count == rank, sparsity.traversalOrder.count == rank,
              Set(sparsity.traversalOrder) == Set(0..<rank)
        else {
            throw InferenceError("DENSIFY of \(tensor): block sparsity or a traversal order not matching rank \(rank) is unsupported")
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
                    throw InferenceError("DENSIFY of \(tensor): value index \(position) outside \(values.count) values")
                }
                dense[offset] = values[position]
                return
            }
            let dim = sparsity.traversalOrder[level]
            switch sparsity.dimensions[level] {
            case let .dense(size):
                guard size == shape[dim] else {
                    throw InferenceError("DENSIFY of \(tensor): dense size \(size) ≠ dimension \(shape[dim])")
                }
                for i in 0..<size { try walk(level: level + 1, position: position * size + i, offset: offset + i * strides[dim]) }
            case let .sparseCSR(segments, indices):
                guard position + 1 < segments.count else {
                    throw InferenceError("DENSIFY of \(tensor): segment \(position) out of range")
                }
                let start = segments[position], end = segments[position + 1]
                guard start >= 0, start <= end, end <= indices.count else {
                    throw InferenceError("DENSIFY of \(tensor): segment \(start)..<\(end) outside \(indices.count) indices")
                }
                for k in start..<end {
                    let coordinate = indices[k]
                    guard coordinate >= 0, coordinate < shape[dim] else {
                        throw InferenceError("DENSIFY of \(tensor): index \(coordinate) outside dimension \(shape[dim])")
                    }
                    try walk(level: level + 1, position: k, offset: offset + coordinate * strides[dim])
                }
            }
        }
        try walk(level: 0, position: 0, offset: 0)
        return dense
    }
}
