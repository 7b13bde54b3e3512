/// A `manifest.csv` read back whole, every row held (``ManifestReader``
/// reads it: the same parsing and checks). For small manifests and
/// tests; the report, `export` and `merge` walk a ``ManifestReader``
/// instead, whatever the manifest's length.
package struct ManifestTable: Sendable {
    /// Every row after the header.
    package let rows: [ManifestRow]

    package init(csv text: String) throws(ReportError) {
        let reader = try ManifestReader(bytes: Array(text.utf8))
        var rows: [ManifestRow] = []
        while let row = try reader.nextRow() { rows.append(row) }
        self.rows = rows
    }
}
