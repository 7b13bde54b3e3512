/// `SparsityParameters` of a sparse constant tensor (TACO-style format).
public struct Sparsity: Sendable, Equatable {
    /// One dimension of the traversal.
    public enum Dimension: Sendable, Equatable {
        case dense(size: Int)
        /// CSR: `segments[k]..<segments[k+1]` index the entries of the k-th parent position.
        case sparseCSR(segments: [Int], indices: [Int])
    }

    public var traversalOrder: [Int]
    public var blockMap: [Int]
    public var dimensions: [Dimension]
}

extension Sparsity {
    static func decode(_ table: FlatTable) throws(ModelError) -> Sparsity {
        let order = try table.int32s(0, "traversal_order") ?? []
        let blockMap = try table.int32s(1, "block_map") ?? []
        var dimensions: [Dimension] = []
        if let metadata = try table.vector(2, elementSize: 4, "dim_metadata") {
            for index in 0..<metadata.count {
                let dimension = try metadata.table(index)
                let format = try dimension.scalar(0, default: Int8(0))
                switch format {
                case 0:
                    dimensions.append(.dense(size: Int(try dimension.scalar(1, default: Int32(0)))))
                case 1:
                    let segments = try indexVector(dimension, typeField: 2, valueField: 3, "array_segments")
                    let indices = try indexVector(dimension, typeField: 4, valueField: 5, "array_indices")
                    dimensions.append(.sparseCSR(segments: segments, indices: indices))
                default:
                    throw .undefinedSparseFormat(dimension: index, format: Int(format))
                }
            }
        }
        return Sparsity(traversalOrder: order, blockMap: blockMap, dimensions: dimensions)
    }

    /// A `SparseIndexVector` union: Int32Vector (1), Uint16Vector (2) or Uint8Vector (3), each a table with `values` at field 0.
    private static func indexVector(_ table: FlatTable, typeField: Int, valueField: Int, _ what: String) throws(ModelError) -> [Int] {
        let type = try table.scalar(typeField, default: UInt8(0))
        guard let values = try table.table(valueField, what) else { throw .missingField(what) }
        switch type {
        case 1: return try values.vector(0, elementSize: 4, what)?.scalars(Int32.self).map(Int.init) ?? []
        case 2: return try values.vector(0, elementSize: 2, what)?.scalars(UInt16.self).map(Int.init) ?? []
        case 3: return try values.vector(0, elementSize: 1, what)?.scalars(UInt8.self).map(Int.init) ?? []
        default: throw .undefinedIndexVectorType(vector: what, type: Int(type))
        }
    }
}
