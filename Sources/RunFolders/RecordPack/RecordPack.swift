import Crypto
import Synchronization

/// Records stored by key in a handful of files: append-only segments
/// (`000001.seg`, …, each at most ``segmentLimit`` bytes; a run starts a
/// segment of its own the first time it writes) and one ``PackIndex``. It
/// holds the stage cache (`DIR/.cache/stages`) and the completion records
/// (`DIR/.cache/done`): a run of a hundred million entries leaves a few
/// thousand files, each record takes its own size on disk (no file rounded
/// up to whole blocks), and finding a record costs one index probe and one
/// read whatever the pack holds.
///
/// Each record in a segment is framed by the magic `FPPR`, the SHA-256 of
/// its key and its payload's length (little-endian); a record is read back
/// only when its frame names the key asked for and the length the index
/// gave. The payload is a ``SealedRecord``, checked by the caller: a cut,
/// flipped or misplaced record, or an index slot pointing at anything else,
/// is reported as damaged and recomputed, never trusted. An index whose
/// header fails its checks is rebuilt from the segments, newest copy of
/// each key last. Every file is reached through the output folder's handle
/// without following links. Safe to use from several workers at once.
package final class RecordPack: Sendable {
    static let frameMagic = Array("FPPR".utf8)
    package static let frameSize = 4 + 32 + 4
    /// A segment is closed once a record would take it past this size.
    static let segmentLimit = 1 << 30
    /// Far above any real record (a face with every point group is ~20 KB).
    static let recordLimit = 256 << 20

    /// What a lookup found.
    package enum Lookup: Equatable {
        case absent
        case found([UInt8])
        case damaged(String)
    }

    private struct State {
        var index: PackIndex
        /// The segment this run appends to, once it has written.
        var segment: PackFile?
        var segmentNumber: Int
        var segmentEnd: Int
    }

    private let folder: OutputDirectory
    private let state: Mutex<State>
    private let segmentLimit: Int
    /// Names in the folder that are neither the index, a segment nor a
    /// temporary file: another layout's files (see ``legacyNames``).
    package let legacyNames: [String]
    /// Whether the index was missing or damaged and was rebuilt from the segments.
    package let rebuiltIndex: Bool

    /// Opens the pack in `folder` (empty or made by this type).
    init(folder: OutputDirectory, segmentLimit: Int = RecordPack.segmentLimit) throws {
        self.folder = folder
        self.segmentLimit = segmentLimit
        let names = try folder.names()
        let segments = names.compactMap(Self.segmentNumber).sorted()
        legacyNames = names.filter {
            $0 != PackIndex.name && Self.segmentNumber($0) == nil && !OutputDirectory.isTemporaryName($0)
        }.sorted()
        let file = try PackFile(PackIndex.name, in: folder)
        var index: PackIndex
        if let intact = try PackIndex.open(file), !(intact.count == 0 && !segments.isEmpty) {
            index = intact
            rebuiltIndex = false
        } else {
            index = try Self.rebuild(folder: folder, segments: segments)
            rebuiltIndex = true
        }
        state = Mutex(State(index: index, segment: nil, segmentNumber: (segments.last ?? 0) + 1, segmentEnd: 0))
    }

    /// `000001.seg` → 1.
    package static func segmentNumber(_ name: String) -> Int? {
        guard name.count == 10, name.hasSuffix(".seg"), let number = Int(name.prefix(6)), number > 0 else { return nil }
        return number
    }

    static func segmentName(_ number: Int) -> String {
        let digits = String(number)
        return String(repeating: "0", count: max(0, 6 - digits.count)) + digits + ".seg"
    }

    package static func keyHash(_ key: String) -> [UInt8] { Array(SHA256.hash(data: Array(key.utf8))) }

    /// Opens the pack in the folder at `path` (tests and tools; a run opens
    /// it through its output folder's handle).
    package convenience init(path: String, segmentLimit: Int = RecordPack.segmentLimit) throws {
        try self.init(folder: OutputDirectory(path: path), segmentLimit: segmentLimit)
    }

    /// The record stored under `key`.
    package func read(_ key: String) -> Lookup {
        let hash = Self.keyHash(key)
        let found: (PackIndex.Location, PackFile?)?
        do {
            found = try state.withLock { state in
                try state.index.lookup(hash).map { ($0, $0.segment == state.segmentNumber ? state.segment : nil) }
            }
        } catch {
            return .damaged("index unreadable: \(error)")
        }
        guard let (location, open) = found else { return .absent }
        return frame(at: location, key: hash, in: open)
    }

    /// Stores `payload` under `key`, unless the record stored there already
    /// is the same bytes.
    package func write(_ payload: [UInt8], for key: String) throws {
        try write(payload, keyHash: Self.keyHash(key))
    }

    /// Stores `payload` under the key whose SHA-256 is `hash`.
    package func write(_ payload: [UInt8], keyHash hash: [UInt8]) throws {
        guard payload.count <= Self.recordLimit else { throw PackFile.Failure(path: folder.path, reason: "record of \(payload.count) bytes") }
        var framed = Self.frameMagic + hash
        PackIndex.append(UInt32(payload.count), to: &framed)
        framed += payload
        try state.withLock { state in
            if let location = try state.index.lookup(hash), location.length == payload.count,
               frame(at: location, key: hash, in: location.segment == state.segmentNumber ? state.segment : nil) == .found(payload) {
                return
            }
            if state.segment == nil || state.segmentEnd > 0 && state.segmentEnd + framed.count > segmentLimit {
                if state.segment != nil { state.segmentNumber += 1 }
                let name = Self.segmentName(state.segmentNumber)
                let segment = try PackFile(name, in: folder)
                // A segment of this number can only be a leftover of a run that died before listing it: start it over.
                try segment.resize(to: 0)
                state.segment = segment
                state.segmentEnd = 0
            }
            let offset = state.segmentEnd
            try state.segment!.write(framed, at: offset)
            state.segmentEnd += framed.count
            let location = PackIndex.Location(segment: state.segmentNumber, offset: offset, length: payload.count)
            let needsRoom: Bool
            do {
                needsRoom = try state.index.insert(hash, at: location)
            } catch is PackIndex.Full {
                state.index = try state.index.grown(in: folder)
                needsRoom = try state.index.insert(hash, at: location)
            }
            if needsRoom { state.index = try state.index.grown(in: folder) }
        }
    }

    /// Where each key's record lies (its segment's name, the payload's
    /// offset and length) and the key's SHA-256, in the order they were
    /// written; for tests that damage or forge records. Holds every
    /// location in memory: not for a run.
    package func locations() throws -> [(keyHash: [UInt8], segment: String, offset: Int, length: Int)] {
        var found: [(keyHash: [UInt8], segment: String, offset: Int, length: Int)] = []
        try state.withLock { state in
            try state.index.forEach { _, location in
                let name = Self.segmentName(location.segment)
                let key = folder.withRegularFile(name) { descriptor, _ in
                    try? PackFile.bytes(descriptor, at: location.offset + 4, count: 32, path: name)
                } ?? nil
                found.append((key ?? [], name, location.offset + Self.frameSize, location.length))
            }
        }
        return found.sorted { ($0.segment, $0.offset) < ($1.segment, $1.offset) }
    }

    // MARK: - Internals

    /// The payload of the record framed at `location`, when its frame names `key`.
    private func frame(at location: PackIndex.Location, key: [UInt8], in open: PackFile?) -> Lookup {
        guard location.length <= Self.recordLimit, location.offset >= 0 else { return .damaged("index slot out of range") }
        let count = Self.frameSize + location.length
        let read: ([UInt8]?)?
        do {
            if let open {
                read = try open.bytes(at: location.offset, count: count)
            } else {
                let name = Self.segmentName(location.segment)
                read = folder.withRegularFile(name) { descriptor, _ in
                    try? PackFile.bytes(descriptor, at: location.offset, count: count, path: name)
                } ?? nil
            }
        } catch {
            return .damaged("\(error)")
        }
        guard let bytes = read ?? nil else { return .damaged("segment \(Self.segmentName(location.segment)) missing or cut") }
        guard bytes.starts(with: Self.frameMagic), bytes[4..<36].elementsEqual(key),
              Int(PackIndex.uint32(bytes, at: 36)) == location.length else { return .damaged("index slot points at another record") }
        return .found(Array(bytes[Self.frameSize...]))
    }

    /// A new index made from the segments' frames (a later copy of a key
    /// replaces an earlier one); a segment is read up to its first frame
    /// that does not parse (the cut end of a run that died).
    private static func rebuild(folder: OutputDirectory, segments: [Int]) throws -> PackIndex {
        let temporary = OutputDirectory.temporaryName(for: PackIndex.name)
        var index = try PackIndex.create(in: PackFile(temporary, in: folder), name: temporary)
        for number in segments {
            let name = segmentName(number)
            let frames: [(key: [UInt8], offset: Int, length: Int)] = folder.withRegularFile(name) { descriptor, size in
                var frames: [(key: [UInt8], offset: Int, length: Int)] = []
                var offset = 0
                while offset + frameSize <= size,
                      let frame = try? PackFile.bytes(descriptor, at: offset, count: frameSize, path: name) ?? nil,
                      frame.starts(with: frameMagic) {
                    let length = Int(PackIndex.uint32(frame, at: 36))
                    guard length <= recordLimit, offset + frameSize + length <= size else { break }
                    frames.append((Array(frame[4..<36]), offset, length))
                    offset += frameSize + length
                }
                return frames
            } ?? []
            for frame in frames where try index.insert(frame.key, at: .init(segment: number, offset: frame.offset, length: frame.length)) {
                index = try index.grown(in: folder)
            }
        }
        try folder.rename(temporary, to: PackIndex.name)
        return try PackIndex.open(index.file) ?? { throw PackFile.Failure(path: folder.path, reason: "rebuilt index unreadable") }()
    }
}
