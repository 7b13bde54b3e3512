#if canImport(Glibc)
import Glibc
#endif

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
    private var table: Int32
    private let names: Int32
    private var slots = ClaimedNames.initialSlots
    private var count = 0
    private var namesEnd: Int64 = 0

    struct Failure: Error, CustomStringConvertible {
        let reason: String
        var description: String { "cannot keep the output names in \(reason)" }
    }

    init(in directory: OutputDirectory) throws {
        self.directory = directory
        names = try directory.anonymousFile()
        do {
            table = try Self.newTable(in: directory, slots: slots)
        } catch {
            close(names)
            throw error
        }
    }

    deinit {
        close(table)
        close(names)
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

    private static func newTable(in directory: OutputDirectory, slots: Int) throws -> Int32 {
        let file = try directory.anonymousFile()
        guard ftruncate(file, off_t(slots * slotBytes)) == 0 else {
            let reason = String(cString: strerror(errno))
            close(file)
            throw Failure(reason: "\(directory.path): \(reason)")
        }
        return file
    }

    /// Twice the slots: every name's slot found again from its hash, in a new table.
    private func grow() throws {
        let larger = slots * 2
        let target = try Self.newTable(in: directory, slots: larger)
        do {
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
        } catch {
            close(target)
            throw error
        }
        close(table)
        table = target
        slots = larger
    }

    private func readSlot(_ slot: Int, of file: Int32) throws -> (hash: UInt64, offset: Int64) {
        Self.slot(try Self.read(Self.slotBytes, from: file, at: Int64(slot * Self.slotBytes)), at: 0)
    }

    private static func slot(_ bytes: [UInt8], at start: Int) -> (hash: UInt64, offset: Int64) {
        var hash: UInt64 = 0, offset: UInt64 = 0
        for k in 0..<8 {
            hash |= UInt64(bytes[start + k]) << (8 * k)
            offset |= UInt64(bytes[start + 8 + k]) << (8 * k)
        }
        return (hash, Int64(offset))
    }

    private func writeSlot(_ slot: Int, hash: UInt64, offset: Int64, to file: Int32) throws {
        let bytes = withUnsafeBytes(of: hash.littleEndian, Array.init) + withUnsafeBytes(of: UInt64(offset).littleEndian, Array.init)
        try Self.write(bytes, to: file, at: Int64(slot * Self.slotBytes))
    }

    private func readName(at offset: Int64) throws -> [UInt8] {
        let length = try Self.read(4, from: names, at: offset)
        let count = Int(length[0]) | Int(length[1]) << 8 | Int(length[2]) << 16 | Int(length[3]) << 24
        return try Self.read(count, from: names, at: offset + 4)
    }

    // MARK: - Bytes

    private static func read(_ count: Int, from file: Int32, at offset: Int64) throws -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        var done = 0
        while done < count {
            let got = bytes.withUnsafeMutableBytes { pread(file, $0.baseAddress! + done, count - done, off_t(offset) + off_t(done)) }
            if got < 0 && errno == EINTR { continue }
            guard got > 0 else { throw Failure(reason: "a nameless file: " + (got < 0 ? String(cString: strerror(errno)) : "it ended early")) }
            done += got
        }
        return bytes
    }

    private static func write(_ bytes: [UInt8], to file: Int32, at offset: Int64) throws {
        var done = 0
        while done < bytes.count {
            let wrote = bytes.withUnsafeBytes { pwrite(file, $0.baseAddress! + done, bytes.count - done, off_t(offset) + off_t(done)) }
            if wrote < 0 && errno == EINTR { continue }
            guard wrote > 0 else { throw Failure(reason: "a nameless file: " + String(cString: strerror(errno))) }
            done += wrote
        }
    }
}
