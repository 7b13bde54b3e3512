/// A `manifest.csv` read back whole, every row held (``ManifestReader``
/// reads it: the same parsing and checks). For small manifests and
/// tests; the report, `export` and `merge` walk a ``ManifestReader``
/// instead, whatever the manifest's length.
package struct ManifestTable: Sendable {
    /// Every row after the header, each as wide as ``Manifest/columns``.
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
        let reader = try ManifestReader(bytes: Array(text.utf8))
        var rows: [[String]] = []
        while let row = try reader.next() { rows.append(row) }
        self.rows = rows
    }
}
