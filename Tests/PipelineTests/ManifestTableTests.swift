import Pipeline
import Testing

/// The export's manifest reader against RFC 4180 text: quoting, doubled
/// quotes, separators and line breaks inside quotes, CRLF or LF records.
struct ManifestTableTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let text: String
        let rows: [[String]]
        var testDescription: String { text.debugDescription }
    }

    @Test(arguments: [
        Case(text: "a,b\r\n1,2\r\n", rows: [["1", "2"]]),
        Case(text: "a,b\n1,2", rows: [["1", "2"]]),
        Case(text: "a,b\r\n\"x,y\",\"say \"\"hi\"\"\"\r\n", rows: [["x,y", "say \"hi\""]]),
        Case(text: "a,b\r\n\"line\r\nbreak\",\r\n,\r\n", rows: [["line\r\nbreak", ""], ["", ""]]),
        Case(text: "a,b\r\n\"ü, ☃\",\"\"\r\n", rows: [["ü, ☃", ""]]),
    ])
    func readsRecords(_ example: Case) throws {
        let table = try ManifestTable(text: example.text)
        #expect(table.header == ["a", "b"])
        #expect(table.rows == example.rows)
    }

    @Test(arguments: ["a,b\r\n1,2,3\r\n", "a,b\r\n\"open,2\r\n", "a,b\r\nx\"y,2\r\n", "a,b\r\n\"x\"y,2\r\n", ""])
    func refusesMalformedText(_ text: String) {
        #expect(throws: ExportError.self) { try ManifestTable(text: text) }
    }
}
