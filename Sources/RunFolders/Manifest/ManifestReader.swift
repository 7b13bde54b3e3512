#if canImport(Glibc)
import Glibc
#endif

/// A `manifest.csv` read back one row at a time (RFC 4180: quoted fields,
/// doubled quotes, CRLF or LF line ends), its header checked against
/// ``Manifest/columns``: what the report, `export` and `merge` walk. The
/// file is read in pieces of ``pieceBytes``, so a manifest of any length
/// takes the same memory (one row and one piece). The other CSV files
/// facepipe writes (`skipped.csv`, a shard's `_SUCCESS.files`) are read by
/// the same code, each with its own header (``init(descriptor:shownAs:header:)``).
package final class ManifestReader {
    /// The header as the file has it: ``Manifest/columns``, or the names of
    /// ``ManifestColumn/beforeVideo`` for a manifest written before video input.
    package private(set) var header: [String] = []
    /// Bytes read from the file at a time.
    static let pieceBytes = 1 << 20
    /// The longest row read (its bytes as stored, line end included): a
    /// longer one (a hostile 2 GB line) is refused with its line number
    /// once this many bytes are read, so a row takes at most this memory.
    /// A row facepipe writes holds a few names and numbers: far less.
    package static let rowLimit = 16 << 20

    /// The file read (nil: `piece` holds the whole manifest), and its owner when this reader opened it.
    private let descriptor: Int32?
    private let file: RegularFile?
    /// The file as messages name it.
    let shownAs: String
    /// The headers the file may have: the manifest's (nil), or one other file's.
    private var otherHeader: [String]?
    private var piece: [UInt8]
    private var position = 0
    private var fileOffset: Int64 = 0
    /// Records read so far, the header included (a record's line number is this + 1).
    private var records = 0
    /// Sees every byte the reader reads from its file, in order, once (a
    /// running SHA-256 of exactly what was parsed).
    private var observer: ((UnsafeRawBufferPointer) -> Void)?
    /// Rows read so far, the header not included.
    var rows: Int { max(0, records - 1) }

    /// Reads `bytes` (a whole manifest), shown as `manifest.csv` in messages.
    package init(bytes: [UInt8]) throws(ReportError) {
        file = nil
        descriptor = nil
        shownAs = OutputLayout.manifestName
        piece = bytes
        header = try readHeader()
    }

    /// Reads the open `file`, named `shownAs` when a read fails.
    init(file: RegularFile, shownAs: String) throws(ReportError) {
        self.file = file
        descriptor = file.descriptor
        self.shownAs = shownAs
        piece = []
        header = try readHeader()
    }

    /// Reads the open file `descriptor` from its start (the caller keeps
    /// it open while this reader is used), named `shownAs` in messages.
    init(descriptor: Int32, shownAs: String) throws(ReportError) {
        file = nil
        self.descriptor = descriptor
        self.shownAs = shownAs
        piece = []
        header = try readHeader()
    }

    /// Reads the open file `descriptor` (kept open by the caller) of another
    /// of facepipe's CSV files, whose first line must be `header`; its rows
    /// must be as wide. Named `shownAs` in messages. `observer` sees every
    /// byte read, in order, once (to hash exactly what was parsed).
    init(descriptor: Int32, shownAs: String, header expected: [String],
         observer: ((UnsafeRawBufferPointer) -> Void)? = nil) throws(ReportError) {
        file = nil
        self.descriptor = descriptor
        self.shownAs = shownAs
        otherHeader = expected
        self.observer = observer
        piece = []
        header = try readHeader()
    }

    /// Opens `manifest.csv` in `folder` (``RunFolder``: no link followed).
    package convenience init(in folder: RunFolder, name: String = OutputLayout.manifestName) throws(ReportError) {
        let shown = folder.root.appendingPathComponent(name).path
        let file: RegularFile
        do { file = try folder.open(name) } catch { throw .unreadable(file: shown, reason: error.reason) }
        try self.init(file: file, shownAs: shown)
    }

    /// The next row of the manifest (an older manifest's rows get empty
    /// `frame` and `time`), or nil after the last.
    package func nextRow() throws(ReportError) -> ManifestRow? {
        precondition(otherHeader == nil, "\(shownAs) is not a manifest")
        guard let record = try next() else { return nil }
        // A manifest's header is checked to be one of the two (readHeader): a row of it fits ManifestRow.
        let cells = header.count == Manifest.columns.count ? record
            : record + [String](repeating: "", count: Manifest.columns.count - header.count)
        return ManifestRow(cells: cells)!
    }

    /// The next record of another CSV file (`init(descriptor:shownAs:header:observer:)`),
    /// as wide as its header; of a manifest, as the file has it (``nextRow()`` gives it typed).
    package func next() throws(ReportError) -> [String]? {
        guard let record = try nextRecord() else { return nil }
        guard record.count == header.count else {
            throw malformed(line: records, reason: "\(record.count) fields, the header has \(header.count)")
        }
        return record
    }

    private func readHeader() throws(ReportError) -> [String] {
        let first = try nextRecord()
        if let otherHeader {
            guard first == otherHeader else {
                throw malformed(line: 1, reason: "the header is not facepipe's (\(otherHeader.joined(separator: ",")))")
            }
            return otherHeader
        }
        guard let first, first == Manifest.columns || first == ManifestColumn.beforeVideo.map(\.name) else {
            throw .malformedManifest(line: 1, reason: "the header is not facepipe's (\(Manifest.columns.count) columns from \(Manifest.columns[0]) to \(Manifest.columns[Manifest.columns.count - 1]))")
        }
        return first
    }

    /// A row that is not what facepipe writes: for the manifest, where
    /// the report has said so since it read one; for another file, naming it.
    private func malformed(line: Int, reason: String) -> ReportError {
        otherHeader == nil ? .malformedManifest(line: line, reason: reason)
            : .unreadable(file: shownAs, reason: "line \(line): \(reason)")
    }

    // MARK: - Bytes

    /// The next byte, or nil at the end of the file.
    @inline(__always)
    private func byte() throws(ReportError) -> UInt8? {
        if position == piece.count, try !refill() { return nil }
        defer { position += 1 }
        return piece[position]
    }

    /// The next byte without taking it, or nil at the end of the file.
    @inline(__always)
    private func peek() throws(ReportError) -> UInt8? {
        if position == piece.count, try !refill() { return nil }
        return piece[position]
    }

    /// Reads the next piece of the file; false at its end.
    private func refill() throws(ReportError) -> Bool {
        guard let descriptor else { return false }
        position = 0
        var count = 0
        piece = [UInt8](unsafeUninitializedCapacity: Self.pieceBytes) { buffer, initialized in
            while true {
                count = pread(descriptor, buffer.baseAddress, buffer.count, off_t(fileOffset))
                if count < 0 && errno == EINTR { continue }
                break
            }
            initialized = max(count, 0)
        }
        if count < 0 { throw .unreadable(file: shownAs, reason: String(cString: strerror(errno))) }
        if let observer, count > 0 { piece.withUnsafeBytes { observer(UnsafeRawBufferPointer(rebasing: $0[..<count])) } }
        fileOffset += Int64(count)
        return count > 0
    }

    // MARK: - Records

    /// The next record split into fields, or nil at the end.
    private func nextRecord() throws(ReportError) -> [String]? {
        var record: [String] = []
        var field: [UInt8] = []
        var quoted = false, afterQuote = false, atFieldStart = true
        var rowBytes = 0
        func endField() {
            record.append(String(decoding: field, as: UTF8.self))
            field.removeAll(keepingCapacity: true)
            afterQuote = false
            atFieldStart = true
        }
        while let byte = try byte() {
            rowBytes += 1
            guard rowBytes <= Self.rowLimit else {
                throw malformed(line: records + 1, reason: "longer than \(Self.rowLimit) bytes (a row facepipe writes is far shorter)")
            }
            if quoted {
                if byte == UInt8(ascii: "\"") {
                    if try peek() == UInt8(ascii: "\"") {
                        field.append(byte)
                        position += 1
                    } else {
                        quoted = false
                        afterQuote = true
                    }
                } else {
                    field.append(byte)
                }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""):
                guard atFieldStart else {
                    throw malformed(line: records + 1, reason: "a quote inside an unquoted field")
                }
                quoted = true
                atFieldStart = false
            case UInt8(ascii: ","):
                endField()
            case UInt8(ascii: "\r"), UInt8(ascii: "\n"):
                if byte == UInt8(ascii: "\r"), try peek() == UInt8(ascii: "\n") { position += 1 }
                endField()
                records += 1
                return record
            default:
                if afterQuote {
                    throw malformed(line: records + 1, reason: "text after a closing quote")
                }
                field.append(byte)
                atFieldStart = false
            }
        }
        if quoted { throw malformed(line: records + 1, reason: "a quoted field is not closed") }
        guard !field.isEmpty || !record.isEmpty || afterQuote else { return nil }
        endField()
        records += 1
        return record
    }
}
