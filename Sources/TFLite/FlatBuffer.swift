/// Bounds-checked little-endian reads over the bytes of a flatbuffer.
///
/// Every accessor validates the byte range it touches before reading, so a
/// malformed or hostile buffer produces a `ModelError`, never an out-of-bounds
/// read. Nothing here recurses, so a cyclic offset graph cannot hang a reader.
struct FlatBuffer: Sendable {
    let bytes: [UInt8]

    var count: Int { bytes.count }

    /// Checks that `[offset, offset + size)` lies inside the buffer.
    @inline(__always)
    func check(_ offset: Int, size: Int, _ what: @autoclosure () -> String) throws(ModelError) {
        guard offset >= 0, size >= 0, offset <= bytes.count, size <= bytes.count - offset else {
            throw .truncated(what: what(), offset: offset, fileSize: bytes.count)
        }
    }

    func read<T: FixedWidthInteger>(_: T.Type, at offset: Int, _ what: @autoclosure () -> String) throws(ModelError) -> T {
        try check(offset, size: MemoryLayout<T>.size, what())
        return bytes.withUnsafeBytes { T(littleEndian: $0.loadUnaligned(fromByteOffset: offset, as: T.self)) }
    }

    /// The root table the buffer's first four bytes point to.
    func rootTable(_ what: String) throws(ModelError) -> FlatTable {
        let offset = Int(try read(UInt32.self, at: 0, "root offset of \(what)"))
        return try table(at: offset, what)
    }

    /// A table at an absolute position, with its vtable validated.
    func table(at position: Int, _ what: @autoclosure () -> String) throws(ModelError) -> FlatTable {
        let name = what()
        let soffset = Int(try read(Int32.self, at: position, "table \(name)"))
        let vtable = position - soffset
        let vtableSize = Int(try read(UInt16.self, at: vtable, "vtable of \(name)"))
        guard vtableSize >= 4, vtableSize % 2 == 0 else { throw .vtableSize(table: name, size: vtableSize) }
        try check(vtable, size: vtableSize, "vtable of \(name)")
        let tableSize = Int(try read(UInt16.self, at: vtable + 2, "vtable of \(name)"))
        try check(position, size: max(tableSize, 4), "table \(name)")
        return FlatTable(buffer: self, position: position, vtable: vtable, vtableSize: vtableSize, tableSize: tableSize, name: name)
    }
}

/// A vector inside a flatbuffer: `count` elements of `elementSize` bytes from `start`, all inside the buffer.
struct FlatVector: Sendable {
    let buffer: FlatBuffer
    let start: Int
    let count: Int
    let elementSize: Int
    let name: String

    var byteRange: Range<Int> { start..<(start + count * elementSize) }

    func scalar<T: FixedWidthInteger>(_: T.Type, _ index: Int) throws(ModelError) -> T {
        guard index >= 0, index < count else { throw .indexOutOfRange(what: "element of \(name)", index: index, count: count) }
        return try buffer.read(T.self, at: start + index * elementSize, name)
    }

    func scalars<T: FixedWidthInteger>(_: T.Type) throws(ModelError) -> [T] {
        var result: [T] = []
        result.reserveCapacity(count)
        for index in 0..<count { result.append(try scalar(T.self, index)) }
        return result
    }

    /// Element `index` of a vector of tables.
    func table(_ index: Int) throws(ModelError) -> FlatTable {
        let slot = start + index * 4
        let relative = Int(try scalar(UInt32.self, index))
        return try buffer.table(at: slot + relative, "\(name)[\(index)]")
    }
}

/// A table inside a flatbuffer with a validated vtable. Field ids follow the schema.
struct FlatTable: Sendable {
    let buffer: FlatBuffer
    let position: Int
    let vtable: Int
    let vtableSize: Int
    let tableSize: Int
    let name: String

    /// Absolute position of field `id`, or nil when absent.
    func fieldPosition(_ id: Int, size: Int) throws(ModelError) -> Int? {
        let entry = 4 + 2 * id
        guard entry + 2 <= vtableSize else { return nil }
        let relative = Int(try buffer.read(UInt16.self, at: vtable + entry, "vtable of \(name)"))
        guard relative != 0 else { return nil }
        guard relative + size <= tableSize else {
            throw .fieldOutsideTable(table: name, field: id, tableSize: tableSize)
        }
        try buffer.check(position + relative, size: size, "field \(id) of \(name)")
        return position + relative
    }

    func scalar<T: FixedWidthInteger>(_ id: Int, default value: T) throws(ModelError) -> T {
        guard let at = try fieldPosition(id, size: MemoryLayout<T>.size) else { return value }
        return try buffer.read(T.self, at: at, "field \(id) of \(name)")
    }

    /// Position an offset field points to.
    private func target(_ id: Int) throws(ModelError) -> Int? {
        guard let at = try fieldPosition(id, size: 4) else { return nil }
        let relative = Int(try buffer.read(UInt32.self, at: at, "field \(id) of \(name)"))
        return at + relative
    }

    func table(_ id: Int, _ what: String) throws(ModelError) -> FlatTable? {
        guard let at = try target(id) else { return nil }
        return try buffer.table(at: at, "\(what) of \(name)")
    }

    func vector(_ id: Int, elementSize: Int, _ what: String) throws(ModelError) -> FlatVector? {
        guard let at = try target(id) else { return nil }
        let label = "\(what) of \(name)"
        let count = Int(try buffer.read(UInt32.self, at: at, "length of \(label)"))
        let (bytes, overflow) = count.multipliedReportingOverflow(by: elementSize)
        guard !overflow else { throw .elementCountOverflow(vector: label, count: count) }
        try buffer.check(at + 4, size: bytes, "\(label) (\(count) elements)")
        return FlatVector(buffer: buffer, start: at + 4, count: count, elementSize: elementSize, name: label)
    }

    func string(_ id: Int, _ what: String) throws(ModelError) -> String? {
        guard let vector = try vector(id, elementSize: 1, what) else { return nil }
        return String(decoding: buffer.bytes[vector.byteRange], as: UTF8.self)
    }

    func int32s(_ id: Int, _ what: String) throws(ModelError) -> [Int]? {
        try vector(id, elementSize: 4, what)?.scalars(Int32.self).map(Int.init)
    }
}
