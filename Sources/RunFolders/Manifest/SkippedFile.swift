/// `skipped.csv` in the output folder: every entry a run did not process
/// (``RunSummary/skipped`` keeps only the count and the first few), one row
/// each in archive order, written as the entries are seen, so the file is
/// the same for any worker count. RFC 4180 with the manifest's escaping
/// (``Manifest/csvLine(_:)``; text cells as ``Manifest/textCell(_:)`` makes
/// them). Each run (a `--resume` too) writes it anew; `facepipe merge`
/// joins the shards' files in shard order; the report reads it row by row
/// (``SkippedFile/read(_:_:)``).
package final class SkippedFile {
    /// The header: the input, the entry's name as stored and its position (as the manifest's), and why.
    static let columns = ["archive", "entry", "index", "reason"]

    private let file: OutputFile

    /// Creates the file in `directory` (a new, empty file: ``OutputDirectory/createFile(_:)``) with its header.
    package init(in directory: OutputDirectory) throws(OutputDirectory.Failure) {
        file = try directory.createFile(OutputLayout.skippedName)
        try file.append(Array(Manifest.csvLine(Self.columns).utf8))
    }

    package func append(_ record: RunSummary.SkippedRecord) throws(OutputDirectory.Failure) {
        try file.append(Array(Manifest.csvLine(Self.row(of: record)).utf8))
    }

    package func close() throws(OutputDirectory.Failure) { try file.close() }

    static func row(of record: RunSummary.SkippedRecord) -> [String] {
        [Manifest.textCell(record.archive), Manifest.textCell(record.name), String(record.index), Manifest.textCell(record.reason)]
    }

    /// Calls `body` with each row of the `skipped.csv` `reader` reads (its
    /// header checked), as a record; its cells as the file has them.
    static func read(_ reader: ManifestReader, _ body: (RunSummary.SkippedRecord) -> Void) throws(ReportError) {
        while let row = try reader.next() {
            guard let index = Int(row[2]) else {
                throw .unreadable(file: reader.shownAs, reason: "row \(reader.rows): index \(row[2]) is not a number")
            }
            body(RunSummary.SkippedRecord(archive: row[0], index: index, name: row[1], reason: row[3]))
        }
    }
}
