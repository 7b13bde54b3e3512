import Crypto
import RunFolders

/// The output names a run has given so far, kept on disk: a ``PackIndex``
/// (the record packs' hash table) in one nameless file of the output
/// folder, keyed by the name's SHA-256, pointing into another nameless
/// file that holds the names themselves (``OutputDirectory/anonymousFile()``:
/// nothing is left in the folder, even when the run is killed). Its memory
/// is the same for ten names or a hundred million; a name's check reads
/// one run of slots, and the name itself when its hash is found, so the
/// answer is exact (two names whose SHA-256 share 128 bits stop the run
/// instead of being taken for one). Used by one task at a time (the
/// ordered writer).
final class ClaimedNames {
    private let directory: OutputDirectory
    private var table: PackIndex
    private let names: PackFile
    private var namesEnd = 0

    struct Failure: Error, CustomStringConvertible {
        let reason: String
        var description: String { "cannot keep the output names in \(reason)" }
    }

    init(in directory: OutputDirectory) throws {
        self.directory = directory
        names = try PackFile(anonymousIn: directory)
        let table = try PackFile(anonymousIn: directory)
        self.table = try PackIndex.create(in: table, name: table.path)
    }

    /// Adds `name`; false when it was already there.
    func insert(_ name: String) throws -> Bool {
        let bytes = Array(name.utf8)
        let key = Array(SHA256.hash(data: bytes))
        if let found = try table.lookup(key) {
            guard let stored = try names.bytes(at: found.offset, count: found.length) else {
                throw Failure(reason: "\(names.path): it ended early")
            }
            guard stored == bytes else { throw Failure(reason: "\(table.name): two names share the first 128 bits of their SHA-256") }
            return false
        }
        try names.write(bytes, at: namesEnd)
        let location = PackIndex.Location(segment: 1, offset: namesEnd, length: bytes.count)
        namesEnd += bytes.count
        if try table.insert(key, at: location) {
            table = try table.grown(into: PackFile(anonymousIn: directory))
        }
        return true
    }
}
