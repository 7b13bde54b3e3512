extension RunReport {
    /// The text `facepipe report` prints: counts by status, faces, and the
    /// errors, rejections and skipped entries grouped by reason, control
    /// characters escaped (``TerminalText``).
    package var text: String {
        var lines: [String] = []
        lines.append("\(entries) entries: " + entriesByOutcome.filter { $0.count > 0 }.map { "\($0.count) \($0.status)" }.joined(separator: ", ")
                     + (inputErrors > 0 ? "; \(inputErrors) input errors" : ""))
        lines.append("manifest rows: " + rowsByStatus.map { "\($0.count) \($0.status)" }.joined(separator: ", "))
        lines.append("faces: \(faces) detected, \(keptFaces) kept, \(faces - keptFaces) rejected")
        lines.append(contentsOf: groupLines())
        if let runRecordProblem { lines.append(runRecordProblem) }
        // A status read from the manifest is printed too: every line through ``TerminalText``.
        return lines.map(TerminalText.escaped).joined(separator: "\n") + "\n"
    }

    /// Errors, rejected faces and skipped entries, each group on a line
    /// with its count and first entry (`limit` groups of each at most);
    /// rejected faces only `withRejections`; reasons and entries escaped
    /// for a terminal (``TerminalText``).
    package func groupLines(limit: Int = 20, withRejections: Bool = true) -> [String] {
        var lines: [String] = []
        let sections = [("errors", errors), ("rejected faces", withRejections ? rejections : []), ("skipped entries", skipped)]
        for (title, groups) in sections where !groups.isEmpty {
            lines.append("\(title) by reason:")
            let width = String(groups.map(\.count).max() ?? 0).count
            for group in groups.prefix(limit) {
                let count = String(repeating: " ", count: width - String(group.count).count) + String(group.count)
                lines.append("  \(count)  \(TerminalText.escaped(group.reason))  (e.g. \(TerminalText.escaped(group.example)))")
            }
            if groups.count > limit { lines.append("  … \(groups.count - limit) more reasons in report.html") }
        }
        return lines
    }
}
