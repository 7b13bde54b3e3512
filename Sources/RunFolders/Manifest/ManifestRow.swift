/// One row of `manifest.csv`, its cells by ``ManifestColumn``: what
/// ``Manifest`` makes of a record and ``ManifestReader`` reads back.
///
/// Encoded (a completion record's rows) as its cells, a list of strings.
package struct ManifestRow: Sendable, Equatable, Codable {
    /// The cells in column order, one per ``ManifestColumn``.
    package private(set) var cells: [String]

    /// A row of empty cells.
    package init() {
        cells = [String](repeating: "", count: ManifestColumn.allCases.count)
    }

    /// The row of `cells`, or nil unless there is one per column.
    package init?(cells: [String]) {
        guard cells.count == ManifestColumn.allCases.count else { return nil }
        self.cells = cells
    }

    package subscript(column: ManifestColumn) -> String {
        get { cells[column.rawValue] }
        set { cells[column.rawValue] = newValue }
    }

    /// The entry a row belongs to: an entry's rows are adjacent and share it.
    package var entryKey: [String] { [self[.archive], self[.entry], self[.index], self[.frame]] }

    package init(from decoder: any Decoder) throws {
        let cells = try decoder.singleValueContainer().decode([String].self)
        guard let row = ManifestRow(cells: cells) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath,
                                                    debugDescription: "\(cells.count) cells, the manifest has \(ManifestColumn.allCases.count)"))
        }
        self = row
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(cells)
    }
}
