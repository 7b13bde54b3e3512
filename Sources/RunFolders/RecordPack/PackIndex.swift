import Crypto

/// The index of a ``RecordPack``: a hash table on disk (open addressing,
/// linear probing) from a record's key to where its newest copy lies. A
/// lookup reads one run of slots near the key's hash, so it costs the same
/// with ten records as with a hundred million; nothing of the table is held
/// in memory. The table doubles when half full, rewritten slot run by slot
/// run into a temporary file that is then renamed over it.
///
/// The file: a 64-byte header (magic, capacity, count, 8 reserved bytes,
/// the SHA-256 of those 32 bytes), then `capacity` slots of 32 bytes (the
/// key's first 16 bytes, segment number, record length, offset; segment 0
/// marks an empty slot), little-endian. A header that fails its checks
/// makes the pack rebuild the table from its segments; a slot is only a
/// pointer, which the pack checks against the record it points at.
package struct PackIndex {
    package static let name = "index"
    static let magic = Array("FPPKIX01".utf8)
    static let headerSize = 64
    static let slotSize = 32
    static let initialCapacity = 1 << 10
    /// Slots read per probe: one 256-byte run.
    static let probeRun = 8

    /// Where a record lies: its segment's number, the offset of its frame and the payload's length.
    package struct Location: Equatable, Sendable {
        var segment: Int
        package var offset: Int
        package var length: Int

        package init(segment: Int, offset: Int, length: Int) {
            self.segment = segment
            self.offset = offset
            self.length = length
        }
    }

    private(set) var file: PackFile
    /// The file's name in the pack's folder (a temporary one while it is rebuilt).
    package let name: String
    private(set) var capacity: Int
    private(set) var count: Int

    /// The index in `file` when its header is intact and matches the file's
    /// size; nil otherwise (rebuild it). An empty file becomes an empty table.
    static func open(_ file: PackFile, name: String = PackIndex.name) throws -> PackIndex? {
        let size = try file.size()
        if size == 0 {
            let index = PackIndex(file: file, name: name, capacity: initialCapacity, count: 0)
            try index.file.resize(to: headerSize + initialCapacity * slotSize)
            try index.writeHeader()
            return index
        }
        guard size >= headerSize, let header = try file.bytes(at: 0, count: headerSize),
              header.starts(with: magic),
              Array(SHA256.hash(data: header[0..<32])) == Array(header[32..<64]) else { return nil }
        let capacity = Int(truncatingIfNeeded: Self.uint64(header, at: 8))
        let count = Int(truncatingIfNeeded: Self.uint64(header, at: 16))
        guard capacity >= initialCapacity, capacity.nonzeroBitCount == 1, capacity <= 1 << 40,
              (0..<capacity).contains(count), size == headerSize + capacity * slotSize else { return nil }
        return PackIndex(file: file, name: name, capacity: capacity, count: count)
    }

    /// A new empty table in `file`, named `name`, of at least `capacity` slots.
    package static func create(in file: PackFile, name: String, capacity: Int = initialCapacity) throws -> PackIndex {
        let index = PackIndex(file: file, name: name, capacity: max(initialCapacity, capacity), count: 0)
        try file.resize(to: 0)
        try file.resize(to: headerSize + index.capacity * slotSize)
        try index.writeHeader()
        return index
    }

    private init(file: PackFile, name: String, capacity: Int, count: Int) {
        self.file = file
        self.name = name
        self.capacity = capacity
        self.count = count
    }

    /// Where the record with `key` (a SHA-256) lies, or nil.
    package func lookup(_ key: [UInt8]) throws -> Location? {
        switch try probe(key) {
        case .found(_, let location): location
        case .empty, .full: nil
        }
    }

    /// Every slot is taken (only a damaged header's count lets it come to
    /// that): ``grown(in:)`` makes room.
    struct Full: Error {}

    /// Points `key` at `location` (replacing an earlier location). Whether
    /// the table is now over half full: then ``grown(in:)`` must follow.
    package mutating func insert(_ key: [UInt8], at location: Location) throws -> Bool {
        let slot: Int
        switch try probe(key) {
        case .found(let found, _): slot = found
        case .empty(let empty):
            slot = empty
            count += 1
        case .full: throw Full()
        }
        try file.write(Self.slotBytes(key, location), at: Self.headerSize + slot * Self.slotSize)
        try writeHeader()
        return count * 2 > capacity
    }

    /// This table's slots copied into a new file of twice the capacity in
    /// `folder`, renamed over this one.
    package func grown(in folder: OutputDirectory) throws -> PackIndex {
        let temporary = OutputDirectory.temporaryName(for: Self.name)
        let grown = try grown(into: PackFile(temporary, in: folder))
        try folder.rename(temporary, to: name)
        return grown
    }

    /// This table's slots copied into `file` (emptied first), a table of
    /// twice the capacity under this one's name: a nameless file
    /// (``ClaimedNames``) takes the place of this one as it is.
    package func grown(into file: PackFile) throws -> PackIndex {
        var grown = try PackIndex.create(in: file, name: name, capacity: capacity * 2)
        try forEach { key, location in _ = try grown.insert(key, at: location) }
        return grown
    }

    /// Calls `body` with every occupied slot's key prefix and location, in slot order.
    func forEach(_ body: (_ key: [UInt8], _ location: Location) throws -> Void) throws {
        let run = 4096
        var slot = 0
        while slot < capacity {
            let slots = min(run, capacity - slot)
            guard let bytes = try file.bytes(at: Self.headerSize + slot * Self.slotSize, count: slots * Self.slotSize) else {
                throw PackFile.Failure(path: file.path, reason: "shorter than its header says")
            }
            for i in 0..<slots {
                let base = i * Self.slotSize
                if let location = Self.location(bytes, at: base) {
                    try body(Array(bytes[base..<base + 16]), location)
                }
            }
            slot += slots
        }
    }

    // MARK: - Slots

    private enum Probe {
        case found(slot: Int, Location)
        case empty(slot: Int)
        case full
    }

    private func probe(_ key: [UInt8]) throws -> Probe {
        let mask = capacity - 1
        var slot = Int(truncatingIfNeeded: Self.uint64(key, at: 0)) & mask
        var probed = 0
        while probed < capacity {
            let slots = min(Self.probeRun, capacity - slot)
            guard let bytes = try file.bytes(at: Self.headerSize + slot * Self.slotSize, count: slots * Self.slotSize) else {
                throw PackFile.Failure(path: file.path, reason: "shorter than its header says")
            }
            for i in 0..<slots {
                let base = i * Self.slotSize
                guard let location = Self.location(bytes, at: base) else { return .empty(slot: slot + i) }
                if bytes[base..<base + 16].elementsEqual(key[0..<16]) { return .found(slot: slot + i, location) }
            }
            probed += slots
            slot = (slot + slots) & mask
        }
        return .full
    }

    /// The location in the slot at `base`, or nil for an empty slot.
    private static func location(_ bytes: [UInt8], at base: Int) -> Location? {
        let segment = Int(uint32(bytes, at: base + 16))
        guard segment != 0 else { return nil }
        return Location(segment: segment, offset: Int(truncatingIfNeeded: uint64(bytes, at: base + 24)),
                        length: Int(uint32(bytes, at: base + 20)))
    }

    private static func slotBytes(_ key: [UInt8], _ location: Location) -> [UInt8] {
        var bytes = Array(key[0..<16])
        append(UInt32(location.segment), to: &bytes)
        append(UInt32(location.length), to: &bytes)
        append(UInt64(location.offset), to: &bytes)
        return bytes
    }

    private func writeHeader() throws {
        var header = Self.magic
        Self.append(UInt64(capacity), to: &header)
        Self.append(UInt64(count), to: &header)
        Self.append(UInt64(0), to: &header)
        header += Array(SHA256.hash(data: header))
        try file.write(header, at: 0)
    }

    // MARK: - Little-endian fields

    static func uint64(_ bytes: [UInt8], at offset: Int) -> UInt64 {
        (0..<8).reduce(UInt64(0)) { $0 | UInt64(bytes[offset + $1]) << (8 * $1) }
    }

    static func uint32(_ bytes: [UInt8], at offset: Int) -> UInt32 {
        (0..<4).reduce(UInt32(0)) { $0 | UInt32(bytes[offset + $1]) << (8 * $1) }
    }

    static func append<T: FixedWidthInteger>(_ value: T, to bytes: inout [UInt8]) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }
}
