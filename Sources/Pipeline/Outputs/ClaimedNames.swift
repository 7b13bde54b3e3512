/// The output names a run has given so far, kept on disk: a hash table
/// of fixed slots in one nameless file of the output folder and the names
/// themselves in another (``OutputDirectory/anonymousFile()``: nothing is
/// left in the folder, even when the run is killed). Its memory is the
/// same for ten names or a hundred million; a name's check reads one or
/// two slots, and the name itself only when its 64-bit hash meets another's,
/// so the answer is exact. Used by one task at a time (the ordered writer).
final class ClaimedNames {
    /// A slot: the name's hash (0: empty) and where the name starts in the names file.
    private static let slotBytes = 16
    /// Slots of a new table; the table doubles when half of them are taken.
    private static let initialSlots = 1 << 12

    private let directory: OutputDirectory
    private var table: PackFile
    private let names: PackFile
    private var slots = ClaimedNames.initialSlots
    private var count = 0
    private var namesEnd: Int64 = 0

    struct Failure: Error, CustomStringConvertible {
        let reason: String
        var description: String { "cannot keep the output names in \(reason)" }
    }

    init(in directory: OutputDirectory) throws {
        self.directory = directory
        names = try PackFile(anonymousIn: directory)
        table = try Self.newTable(in: directory, slots: slots)
    }

    /// Adds `name`; false when it was already there.
    func insert(_ name: String) throws -> Bool {
        let bytes = Array(name.utf8)
        let hash = Self.hash(bytes)
        var slot = Int(truncatingIfNeeded: hash) & (slots - 1)
        while true {
            let (found, offset) = try readSlot(slot, of: table)
            if found == 0 { break }
            if found == hash, try readName(at: offset) == bytes { return false }
            slot = (slot + 1) & (slots - 1)
        }
        let offset = namesEnd
        var record = withUnsafeBytes(of: UInt32(bytes.count).littleEndian, Array.init)
        record += bytes
        try Self.write(record, to: names, at: offset)
        namesEnd += Int64(record.count)
        try writeSlot(slot, hash: hash, offset: offset, to: table)
        count += 1
        if count * 2 > slots { try grow() }
        return true
    }

    // MARK: - The table

    /// FNV-1a, 64 bits; never 0 (the empty slot).
    private static func hash(_ bytes: [UInt8]) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
        return hash == 0 ? 1 : hash
    }

    private static func newTable(in directory: OutputDirectory, slots: Int) throws -> PackFile {
        let file = try PackFile(anonymousIn: directory)
        try file.resize(to: slots * slotBytes)
        return file
    }

    /// Twice the slots: every name's slot found again from its hash, in a new table.
    private func grow() throws {
        let larger = slots * 2
        let target = try Self.newTable(in: directory, slots: larger)
        let piece = 1 << 14
        for first in stride(from: 0, to: slots, by: piece) {
            let bytes = try Self.read(min(piece, slots - first) * Self.slotBytes, from: table, at: Int64(first * Self.slotBytes))
            for start in stride(from: 0, to: bytes.count, by: Self.slotBytes) {
                let (hash, offset) = Self.slot(bytes, at: start)
                guard hash != 0 else { continue }
                var slot = Int(truncatingIfNeeded: hash) & (larger - 1)
                while try readSlot(slot, of: target).hash != 0 { slot = (slot + 1) & (larger - 1) }
                try writeSlot(slot, hash: hash, offset: offset, to: target)
            }
        }
        table = target
        slots = larger
    }

    private func readSlot(_ slot: Int, of file: PackFile) throws -> (hash: UInt64, offset: Int64) {
        Self.slot(try Self.read(Self.slotBytes, from: file, at: Int64(slot * Self.slotBytes)), at: 0)
    }

    private static func slot(_ bytes: [UInt8], at start: Int) -> (hash: UInt64, offset: Int64) {
        (PackIndex.uint64(bytes, at: start), Int64(bitPattern: PackIndex.uint64(bytes, at: start + 8)))
    }

    private func writeSlot(_ slot: Int, hash: UInt64, offset: Int64, to file: PackFile) throws {
        let bytes = withUnsafeBytes(of: hash.littleEndian, Array.init) + withUnsafeBytes(of: UInt64(offset).littleEndian, Array.init)
        try Self.write(bytes, to: file, at: Int64(slot * Self.slotBytes))
    }

    private func readName(at offset: Int64) throws -> [UInt8] {
        let length = try Self.read(4, from: names, at: offset)
        let count = Int(PackIndex.uint32(length, at: 0))
        return try Self.read(count, from: names, at: offset + 4)
    }

    // MARK: - Bytes

    private static func read(_ count: Int, from file: PackFile, at offset: Int64) throws -> [UInt8] {
        guard let bytes = try file.bytes(at: Int(offset), count: count) else { throw Failure(reason: "\(file.path): it ended early") }
        return bytes
    }

    private static func write(_ bytes: [UInt8], to file: PackFile, at offset: Int64) throws {
        try file.write(bytes, at: Int(offset))
    }
}
