/// A `manifest.csv` read back (RFC 4180: quoted fields, doubled quotes,
/// CRLF or LF line ends), checked against ``Manifest/columns``: the rows a
/// report is built from.
package struct ManifestTable: Sendable {
    /// Every row after the header, each as wide as the header.
    package let rows: [[String]]

    /// The index of `column` in every row (a name from ``Manifest/columns``).
    package static func column(_ name: String) -> Int {
        guard let index = Manifest.columns.firstIndex(of: name) else { preconditionFailure("no manifest column \(name)") }
        return index
    }

    /// The header of manifests written before video input (no `frame` and
    /// `time` columns): still read, each row given empty `frame` and `time`.
    package static let columnsBeforeVideo = Array(Manifest.columns.prefix { $0 != "frame" })

    package init(csv text: String) throws(ReportError) {
        let records = try Self.records(text)
        guard let header = records.first, header == Manifest.columns || header == Self.columnsBeforeVideo else {
            throw .malformedManifest(line: 1, reason: "the header is not facepipe's (\(Manifest.columns.count) columns from \(Manifest.columns[0]) to \(Manifest.columns[Manifest.columns.count - 1]))")
        }
        for (offset, record) in records.enumerated().dropFirst() where record.count != header.count {
            throw .malformedManifest(line: offset + 1, reason: "\(record.count) fields, the header has \(header.count)")
        }
        let missing = [String](repeating: "", count: Manifest.columns.count - header.count)
        rows = records.dropFirst().map { $0 + missing }
    }

    /// The records of `text`, split into fields.
    private static func records(_ text: String) throws(ReportError) -> [[String]] {
        var records: [[String]] = []
        var record: [String] = []
        var field: [UInt8] = []
        var quoted = false, afterQuote = false, atFieldStart = true
        let bytes = Array(text.utf8)
        var i = 0
        func endField() {
            record.append(String(decoding: field, as: UTF8.self))
            field.removeAll(keepingCapacity: true)
            afterQuote = false
            atFieldStart = true
        }
        while i < bytes.count {
            let byte = bytes[i]
            i += 1
            if quoted {
                if byte == UInt8(ascii: "\"") {
                    if i < bytes.count && bytes[i] == UInt8(ascii: "\"") {
                        field.append(byte)
                        i += 1
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
                    throw .malformedManifest(line: records.count + 1, reason: "a quote inside an unquoted field")
                }
                quoted = true
                atFieldStart = false
            case UInt8(ascii: ","):
                endField()
            case UInt8(ascii: "\r"), UInt8(ascii: "\n"):
                if byte == UInt8(ascii: "\r") && i < bytes.count && bytes[i] == UInt8(ascii: "\n") { i += 1 }
                endField()
                records.append(record)
                record.removeAll(keepingCapacity: true)
            default:
                if afterQuote {
                    throw .malformedManifest(line: records.count + 1, reason: "text after a closing quote")
                }
                field.append(byte)
                atFieldStart = false
            }
        }
        if quoted { throw .malformedManifest(line: records.count + 1, reason: "a quoted field is not closed") }
        if !field.isEmpty || !record.isEmpty || afterQuote {
            endField()
            records.append(record)
        }
        return records
    }
}
