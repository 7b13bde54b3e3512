import Foundation

/// `manifest.csv` read back: the header and the rows as strings.
///
/// A reader of RFC 4180 as the manifest is written (``Manifest/csvLine(_:)``):
/// fields separated by commas, a field holding a comma, quote, CR or LF is
/// quoted with its quotes doubled, records end in CRLF (a bare LF is accepted).
/// The export reads the manifest for the run's list of images, in order, and
/// where each one's JSON is; the JSON holds the points.
package struct ManifestTable {
    package let header: [String]
    package let rows: [[String]]

    package init(text: String) throws(ExportError) {
        var records: [[String]] = []
        var record: [String] = []
        var field: [UInt8] = []
        var quoted = false
        var afterQuote = false
        let bytes = Array(text.utf8)
        var i = 0
        func endField() { record.append(String(decoding: field, as: UTF8.self)); field.removeAll(keepingCapacity: true) }
        while i < bytes.count {
            let byte = bytes[i]
            if quoted {
                if byte == UInt8(ascii: "\"") {
                    if i + 1 < bytes.count, bytes[i + 1] == UInt8(ascii: "\"") {
                        field.append(byte); i += 1
                    } else {
                        quoted = false; afterQuote = true
                    }
                } else {
                    field.append(byte)
                }
            } else {
                switch byte {
                case UInt8(ascii: "\""):
                    guard field.isEmpty, !afterQuote else {
                        throw .unreadableRun(file: "manifest.csv", reason: "a quote inside an unquoted field in record \(records.count + 1)")
                    }
                    quoted = true
                case UInt8(ascii: ","):
                    endField(); afterQuote = false
                case UInt8(ascii: "\r"), UInt8(ascii: "\n"):
                    if byte == UInt8(ascii: "\r"), i + 1 < bytes.count, bytes[i + 1] == UInt8(ascii: "\n") { i += 1 }
                    endField(); afterQuote = false
                    records.append(record); record.removeAll()
                default:
                    guard !afterQuote else {
                        throw .unreadableRun(file: "manifest.csv", reason: "text after a closing quote in record \(records.count + 1)")
                    }
                    field.append(byte)
                }
            }
            i += 1
        }
        guard !quoted else { throw .unreadableRun(file: "manifest.csv", reason: "a quoted field is not closed") }
        if !field.isEmpty || !record.isEmpty { endField(); records.append(record) }
        guard let header = records.first else { throw .unreadableRun(file: "manifest.csv", reason: "empty") }
        for (number, row) in records.enumerated().dropFirst() where row.count != header.count {
            throw .unreadableRun(file: "manifest.csv", reason: "record \(number + 1) has \(row.count) fields, the header \(header.count)")
        }
        self.header = header
        rows = Array(records.dropFirst())
    }

    /// The column called `name`'s position.
    func column(_ name: String) throws(ExportError) -> Int {
        guard let index = header.firstIndex(of: name) else {
            throw .unreadableRun(file: "manifest.csv", reason: "no \(name) column")
        }
        return index
    }
}
