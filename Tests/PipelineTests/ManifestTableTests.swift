import Pipeline
import RunFolders
import Testing

/// The manifest reader the report uses: RFC 4180 fields, facepipe's header, rows as wide as it.
struct ManifestTableTests {
    static let header = Manifest.columns.joined(separator: ",")
    static func row(_ cells: [String: String]) -> [String] {
        Manifest.columns.map { cells[$0] ?? "" }
    }

    @Test func readsQuotedFieldsAndBothLineEnds() throws {
        let error = "decode: unknown image format: first bytes 54 (\"T\"), more"
        let quoted = "\"" + error.replacingOccurrences(of: "\"", with: "\"\"") + "\""
        let first = ["a.tar", "x,y.jpg", "0", "error", error] + Array(repeating: "", count: Manifest.columns.count - 5)
        let text = Self.header + "\r\n" + "a.tar,\"x,y.jpg\",0,error," + quoted + String(repeating: ",", count: Manifest.columns.count - 5)
            + "\n" + "a.tar,\"multi\r\nline\",1,no_face" + String(repeating: ",", count: Manifest.columns.count - 4) + "\r\n"
        let table = try ManifestTable(csv: text)
        #expect(table.rows.count == 2)
        #expect(table.rows.first?.cells == first)
        #expect(table.rows.last?[.entry] == "multi\r\nline")
        #expect(table.rows.last?[.status] == "no_face")
    }

    @Test func refusesAnotherHeader() {
        #expect(throws: ReportError.malformedManifest(line: 1, reason: "the header is not facepipe's (\(Manifest.columns.count) columns from archive to time)")) {
            try ManifestTable(csv: "archive,entry\r\n")
        }
    }

    /// A manifest written before video input (no `frame`, `time`) is still read; its rows get empty ones.
    @Test func readsAManifestWithoutFrameColumns() throws {
        let old = ManifestColumn.beforeVideo.map(\.name)
        #expect(old.count == Manifest.columns.count - 2 && old.last == "redact_h")
        let table = try ManifestTable(csv: old.joined(separator: ",") + "\r\n" + "a.tar,x.jpg,0,no_face" + String(repeating: ",", count: old.count - 4) + "\r\n")
        #expect(table.rows.map(\.cells) == [["a.tar", "x.jpg", "0", "no_face"] + Array(repeating: "", count: Manifest.columns.count - 4)])
    }

    @Test func refusesARowOfAnotherWidth() {
        let width = Manifest.columns.count
        #expect(throws: ReportError.malformedManifest(line: 3, reason: "\(width - 1) fields, the header has \(width)")) {
            try ManifestTable(csv: Self.header + "\r\n" + String(repeating: ",", count: width - 1) + "\r\n" + String(repeating: ",", count: width - 2) + "\r\n")
        }
    }

    @Test func refusesAnUnclosedQuote() {
        #expect(throws: ReportError.self) { try ManifestTable(csv: Self.header + "\r\n\"open") }
    }
}
