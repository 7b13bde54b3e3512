import Foundation

/// A sharded run folder (`OUT/shards/<i>-of-<n>/`) as `facepipe merge` reads it — one that may come from
/// anyone (shards copied from a cluster): every read goes through one
/// ``OutputDirectory`` handle on the folder, one component at a time
/// without following links, never above the folder, and each file is
/// size-limited before it is read. What is read is checked before use:
/// `_SUCCESS` by ``ShardCompletion/init(decoding:path:shard:)``, `run.json`
/// by ``RunRecord/init(decoding:)``, `manifest.csv` by the decoder below
/// (`merge` reads the manifest piece by piece through the same checks) and
/// `_SUCCESS.files` by ``ShardFileList/walk(_:in:seal:take:)``, all of
/// which `fuzz-run-folder` feeds.
package final class ShardedRunFolder {
    /// The folder, opened once; writes below it go through the same handle.
    let directory: OutputDirectory

    /// Largest `_SUCCESS`, `run.json` and `manifest.csv` read.
    static let recordLimit = 256 << 20

    package init(_ url: URL) throws(ShardError) {
        do throws(OutputDirectory.Failure) { directory = try OutputDirectory(path: url.standardizedFileURL.path) } catch {
            throw .unreadable(path: url.path, reason: error.reason)
        }
    }

    var path: String { directory.path }

    /// The shard folders under `shards/` (names of the form `<i>-of-<n>`,
    /// other names ignored); throws when `shards` is missing or a link, or
    /// a name's count is over ``Shard/maximumCount``.
    func shardFolders() throws(ShardError) -> [Shard] {
        let names: [String]
        do {
            guard let shards = try directory.existingFolder(OutputLayout.shardsFolder) else {
                throw ShardError.unreadable(path: path + "/shards", reason: "no shards here (run `facepipe run … --out \(path) --shard auto` first)")
            }
            names = try shards.names()
        } catch let error as ShardError {
            throw error
        } catch {
            throw .unreadable(path: path + "/shards", reason: "\(error)")
        }
        var found: [Shard] = []
        for name in names.sorted() {
            let parts = name.components(separatedBy: "-of-")
            let isNumber = { (part: String) in !part.isEmpty && part.allSatisfy { digit in ("0"..."9").contains(digit) } }
            guard parts.count == 2, parts.allSatisfy(isNumber) else { continue }
            guard let n = Int(parts[1]), n <= Shard.maximumCount else {
                throw .invalid("\(path)/shards/\(name): a run is split over at most \(Shard.maximumCount) shards")
            }
            guard let i = Int(parts[0]), let shard = try? Shard(index: i, count: n), shard.folderName == name else { continue }
            found.append(shard)
        }
        return found
    }

    /// The shard's `_SUCCESS`, checked; nil when it has none (unfinished).
    package func completion(of shard: Shard) throws(ShardError) -> ShardCompletion? {
        let relative = OutputLayout.shardFolder(shard) + "/" + OutputLayout.shardCompletionName
        guard let bytes = try read(relative, limit: Self.recordLimit) else { return nil }
        return try ShardCompletion(decoding: bytes, path: path + "/" + relative, shard: shard)
    }

    /// Calls `body` with the bytes of the shard's file `name` (`manifest.csv`,
    /// `skipped.csv`), piece by piece (``OutputDirectory/readPieces(of:_:)``: never held whole).
    func readPieces(of shard: Shard, named name: String, _ body: (UnsafeRawBufferPointer) -> Void) throws(ShardError) {
        let relative = OutputLayout.shardFolder(shard) + "/" + name
        let found: Bool
        do throws(OutputDirectory.Failure) { found = try directory.readPieces(of: relative, body) } catch {
            throw .unreadable(path: error.path, reason: error.reason)
        }
        guard found else { throw .unreadable(path: path + "/" + relative, reason: "missing") }
    }

    /// Calls `body` with the open descriptor of the shard's regular file
    /// `name` (reached without links, as every read here), which it reads
    /// from its start; throws when the file is missing or not a regular file.
    func withFile(of shard: Shard, named name: String, _ body: (Int32) throws -> Void) throws {
        let relative = OutputLayout.shardFolder(shard) + "/" + name
        let result = directory.withRegularFile(relative) { descriptor, _ -> Result<Void, any Error> in
            Result { try body(descriptor) }
        }
        guard let result else { throw ShardError.unreadable(path: path + "/" + relative, reason: "missing, or not a regular file") }
        try result.get()
    }

    /// The size and SHA-256 of the shard's file `name`, read piece by piece.
    func seal(of shard: Shard, named name: String) throws(ShardError) -> ShardCompletion.FileSeal {
        let hasher = RunningSHA256()
        try readPieces(of: shard, named: name, hasher.update)
        let digest = hasher.finalize()
        return ShardCompletion.FileSeal(bytes: Int(digest.bytes), sha256: digest.sha256)
    }

    /// The shard's `run.json`.
    func runJSON(of shard: Shard) throws(ShardError) -> RunRecord {
        let relative = OutputLayout.shardFolder(shard) + "/" + OutputLayout.runRecordName
        guard let bytes = try read(relative, limit: Self.recordLimit) else { throw .unreadable(path: path + "/" + relative, reason: "missing") }
        return try Self.runJSON(decoding: bytes, path: path + "/" + relative)
    }

    /// The shard's folder, for its output files.
    func folder(of shard: Shard) throws(ShardError) -> OutputDirectory {
        let relative = OutputLayout.shardFolder(shard)
        do throws(OutputDirectory.Failure) {
            guard let folder = try directory.existingFolder(relative) else { throw OutputDirectory.Failure(path: path + "/" + relative, reason: "missing") }
            return folder
        } catch {
            throw .unreadable(path: error.path, reason: error.reason)
        }
    }

    private func read(_ relative: String, limit: Int) throws(ShardError) -> [UInt8]? {
        do throws(OutputDirectory.Failure) { return try directory.bytes(of: relative, limit: limit) } catch {
            throw .unreadable(path: error.path, reason: error.reason)
        }
    }

    // MARK: - Decoders (what fuzz-run-folder feeds)

    /// `run.json` bytes as a record (``RunRecord/init(decoding:)``: every
    /// field there with its type, the summary's counters between 0 and
    /// ``RunRecord/counterLimit``, its megapixels finite).
    package static func runJSON(decoding bytes: [UInt8], path: String) throws(ShardError) -> RunRecord {
        do throws(RunRecord.Failure) { return try RunRecord(decoding: bytes) } catch {
            switch error {
            case .notJSON(let reason): throw .unreadable(path: path, reason: "not a run record: \(reason)")
            case .badField(let field, let reason): throw .badRecord(path: path, field: field, reason: reason)
            }
        }
    }

    /// A shard's manifest bytes: its header line and rows (checked against
    /// ``Manifest/columns`` by ``ManifestReader``), and the output files its
    /// rows name (`output`, `faces_json`, `crop`), in order of first mention.
    package static func manifest(decoding bytes: [UInt8], path: String) throws(ShardError) -> (header: ArraySlice<UInt8>, body: ArraySlice<UInt8>, named: [String]) {
        guard let headerEnd = bytes.firstIndex(of: 0x0A) else { throw .unreadable(path: path, reason: "no header line") }
        let named: [String]
        do throws(ReportError) {
            let reader = try ManifestReader(bytes: bytes)
            named = try namedFiles(reader.nextRow)
        } catch {
            throw .unreadable(path: path, reason: "\(error)")
        }
        return (bytes[...headerEnd], bytes[(headerEnd + 1)...], named)
    }

    /// The output files the rows `next` gives name (`output`, `faces_json`,
    /// `crop`), in order of first mention.
    static func namedFiles(_ next: () throws(ReportError) -> ManifestRow?) throws(ReportError) -> [String] {
        var named: [String] = []
        var seen: Set<String> = []
        while let row = try next() {
            for column in ManifestColumn.outputFiles where !row[column].isEmpty && seen.insert(row[column]).inserted { named.append(row[column]) }
        }
        return named
    }
}
