import ArchiveIO
import Foundation

/// `OUT/shards/<i>-of-<n>/_SUCCESS.files`: the output files of a finished
/// shard that `facepipe merge` takes, each with its size and SHA-256, one
/// CSV row a file (RFC 4180, ``Manifest/csvLine(_:)``; header ``columns``)
/// in manifest order: for each entry (the manifest's adjacent rows of one
/// archive, entry, index and frame) the files its rows name (`output`,
/// `faces_json`, `crop`), a crop's whole folder (the entry's other crops)
/// in its place, each once, on rows whose `row` is the entry's first
/// manifest row (1-based, the header not counted). `_SUCCESS` seals it (its
/// size and SHA-256, ``ShardCompletion/outputList``), so a list changed or
/// cut short is refused; it is written and read one row at a time, so a
/// shard of any size takes the same memory to record and to merge.
package enum ShardFileList {
    static let columns = ["row", "path", "bytes", "sha256"]

    /// One row: a file of the entry that starts at manifest row `row`.
    package struct Line: Equatable {
        package var row: Int
        package var path: String
        package var digest: OutputDirectory.FileDigest
    }

    /// One entry of a manifest: the number of its first row, the files its
    /// rows name in order of first mention, the folders of its crops.
    struct Entry {
        var row: Int
        var named: [String] = []
        var cropFolders: [String] = []

        /// Whether the merge takes `path` for this entry: a file its rows name, or a crop beside one.
        func takes(_ path: String) -> Bool {
            named.contains(path) || (path.hasPrefix(OutputLayout.cropsFolder + "/") && cropFolders.contains(SlashPath.parent(of: path)))
        }
    }

    /// The manifest's rows grouped into entries, one at a time (``Entry``).
    final class Entries {
        private let reader: ManifestReader
        private var lookahead: ManifestRow?
        private var started = false
        /// The number of the row in `lookahead` (1-based, the header not counted).
        private var rowNumber = 0

        init(_ reader: ManifestReader) { self.reader = reader }

        func next() throws(ReportError) -> Entry? {
            if !started { started = true; lookahead = try reader.nextRow(); rowNumber = 1 }
            guard let first = lookahead else { return nil }
            let key = first.entryKey
            var entry = Entry(row: rowNumber)
            while let row = lookahead, row.entryKey == key {
                for column in ManifestColumn.outputFiles where !row[column].isEmpty && !entry.named.contains(row[column]) {
                    entry.named.append(row[column])
                }
                if !row[.crop].isEmpty {
                    let folder = SlashPath.parent(of: row[.crop])
                    if !entry.cropFolders.contains(folder) { entry.cropFolders.append(folder) }
                }
                lookahead = try reader.nextRow()
                rowNumber += 1
            }
            return entry
        }
    }

    // MARK: - Writing (the shard)

    /// Writes the list of the shard folder `directory` from its
    /// `manifest.csv` (write-then-rename) and returns its seal. A named file
    /// that is missing, or not below `images/`, `faces/` or `crops/`, is
    /// left out (the merge then refuses the shard, naming it).
    package static func write(in directory: OutputDirectory) throws -> ShardCompletion.FileSeal {
        let manifestPath = directory.path + "/manifest.csv"
        let file = try directory.streamedFile(OutputLayout.shardFileListName)
        let hasher = RunningSHA256()
        func emit(_ fields: [String]) throws {
            let bytes = Array(Manifest.csvLine(fields).utf8)
            hasher.update(bytes)
            if let code = bytes.withUnsafeBytes({ OutputDirectory.writeAll($0, to: file.descriptor) }) {
                throw OutputDirectory.Failure(path: file.path, reason: String(cString: strerror(code)))
            }
        }
        try emit(columns)
        let result = directory.withRegularFile(OutputLayout.manifestName) { descriptor, _ -> Result<Void, any Error> in
            do {
                let entries = Entries(try ManifestReader(descriptor: descriptor, shownAs: manifestPath))
                while let entry = try entries.next() {
                    var listed: [String] = []
                    for path in entry.named where !listed.contains(path) {
                        let candidates = path.hasPrefix(OutputLayout.cropsFolder + "/") ? try directory.regularFiles(below: SlashPath.parent(of: path)) : [path]
                        for candidate in candidates where !listed.contains(candidate) && isOutputPath(candidate) {
                            guard let digest = directory.digest(of: candidate) else { continue }
                            listed.append(candidate)
                            try emit([String(entry.row), candidate, String(digest.bytes), digest.sha256])
                        }
                    }
                }
                return .success(())
            } catch {
                return .failure(error)
            }
        }
        guard let result else { throw OutputDirectory.Failure(path: manifestPath, reason: "missing, or not a regular file") }
        try result.get()
        try file.commit()
        let digest = hasher.finalize()
        return ShardCompletion.FileSeal(bytes: Int(digest.bytes), sha256: digest.sha256)
    }

    /// A plain relative path below `images/`, `faces/` or `crops/`.
    package static func isOutputPath(_ path: String) -> Bool {
        guard (try? SafeOutputPath.checkRelative(path)) != nil, path.contains("/"),
              let top = path.split(separator: "/").first else { return false }
        return OutputLayout.outputFolders.contains(String(top))
    }

    // MARK: - Reading (the merge)

    /// Walks the list of `shard` (shown as `shardPath`) in step with its
    /// manifest and calls `take` with each listed file its entry's rows
    /// name (or a crop beside one), in list order; files the manifest does
    /// not name are passed over, never taken. Throws when the list is not
    /// the one `seal` records (checked over exactly the bytes parsed, after
    /// the last row: `take` must not write before a first walk has
    /// finished), a row is malformed or out of manifest order, a path is
    /// not below `images/`, `faces/` or `crops/`, a file is listed twice
    /// for one entry, or the manifest names a file the list does not have.
    package static func walk(_ shard: Shard, in folder: ShardedRunFolder, seal: ShardCompletion.FileSeal,
                             take: (Line) throws -> Void) throws {
        let shardPath = folder.path + "/" + OutputLayout.shardFolder(shard)
        let listPath = shardPath + "/" + OutputLayout.shardFileListName
        func bad(_ line: Int, _ reason: String) -> ShardError {
            .badRecord(path: listPath, field: "line \(line)", reason: reason)
        }
        let hasher = RunningSHA256()
        try folder.withFile(of: shard, named: OutputLayout.shardFileListName) { listDescriptor in
            try folder.withFile(of: shard, named: OutputLayout.manifestName) { manifestDescriptor in
                let list: ManifestReader
                let entries: Entries
                do throws(ReportError) {
                    list = try ManifestReader(descriptor: listDescriptor, shownAs: listPath, header: columns, observer: hasher.update)
                    entries = Entries(try ManifestReader(descriptor: manifestDescriptor, shownAs: shardPath + "/" + OutputLayout.manifestName))
                } catch {
                    throw ShardError.unreadable(path: listPath, reason: "\(error)")
                }
                func nextLine() throws -> Line? {
                    let row: [String]?
                    do throws(ReportError) { row = try list.next() } catch { throw ShardError.unreadable(path: listPath, reason: "\(error)") }
                    guard let row else { return nil }
                    let number = list.rows + 1
                    guard let entryRow = Int(row[0]), entryRow >= 1 else { throw bad(number, "row \(row[0]) is not a manifest row") }
                    guard isOutputPath(row[1]) else { throw bad(number, "\(row[1]) is not a path below images/, faces/ or crops/") }
                    guard let bytes = Int(row[2]), bytes >= 0 else { throw bad(number, "\(row[1]): \(row[2]) bytes") }
                    guard ShardCompletion.FileSeal.isSHA256(row[3]) else {
                        throw bad(number, "\(row[1]): \(row[3]) is not a SHA-256")
                    }
                    return Line(row: entryRow, path: row[1], digest: .init(bytes: bytes, sha256: row[3]))
                }
                var line = try nextLine()
                while true {
                    let entry: Entry?
                    do throws(ReportError) { entry = try entries.next() } catch {
                        throw ShardError.unreadable(path: shardPath + "/" + OutputLayout.manifestName, reason: "\(error)")
                    }
                    guard let entry else { break }
                    if let early = line, early.row < entry.row {
                        throw bad(list.rows + 1, "row \(early.row) is not the first manifest row of an entry, or out of order")
                    }
                    var taken: [String] = []
                    while let current = line, current.row == entry.row {
                        if entry.takes(current.path) {
                            guard !taken.contains(current.path) else { throw bad(list.rows + 1, "\(current.path) is listed twice") }
                            taken.append(current.path)
                            try take(current)
                        }
                        line = try nextLine()
                    }
                    if let missing = entry.named.first(where: { !taken.contains($0) }) {
                        throw ShardError.mismatch("\(shardPath)/\(OutputLayout.manifestName) names \(missing), which its \(OutputLayout.shardFileListName) does not record: rerun that shard")
                    }
                }
                if let extra = line { throw bad(list.rows + 1, "row \(extra.row) is past the manifest's last row") }
            }
        }
        let digest = hasher.finalize()
        guard digest.bytes == Int64(seal.bytes), digest.sha256 == seal.sha256 else {
            throw ShardError.mismatch("\(listPath) is not the file list its shard wrote (size or SHA-256 differ from _SUCCESS): rerun that shard")
        }
    }
}
