/// Problems of one kind: a reason (an error, rejection or skip text with
/// what is particular to one entry taken out), how often it happened, and
/// the first entry it happened to. The end-of-run summary, `facepipe
/// report` and `report.html` all count through ``ReasonTally``.
package struct ReasonGroup: Sendable, Equatable, Codable {
    package var reason: String
    package var count: Int
    /// The first entry with this reason, in manifest order (`archive/entry`, or the archive).
    package var example: String
    /// That entry's text in full.
    package var exampleText: String

    package init(reason: String, count: Int, example: String, exampleText: String) {
        self.reason = reason
        self.count = count
        self.example = example
        self.exampleText = exampleText
    }

    /// Groups `items` (a text and the entry it belongs to, in manifest
    /// order) by ``reasons(of:)``: most frequent first, then by reason. A
    /// text with several reasons (`passport: yaw …; quality …`) counts in
    /// each of its groups. Counted by ``ReasonTally`` (at most
    /// ``ReasonTally/maxReasons`` groups and one of other reasons).
    package static func grouping(_ items: some Sequence<(text: String, entry: String)>) -> [ReasonGroup] {
        var tally = ReasonTally()
        for item in items { tally.add(item.text, entry: item.entry) }
        return tally.grouped
    }

    /// The reasons in a manifest `error` or `rejection` text (or a skip
    /// reason), without what is particular to one entry:
    ///
    /// - the text is cut after its kind: `decode: truncated JPEG data: Premature end…`
    ///   → `decode: truncated JPEG data` (a leading stage name, a word without
    ///   spaces, stays with the clause that follows it); `archive unreadable,
    ///   later entries lost: photos.tar: damaged…` → `archive unreadable, later entries lost`;
    /// - rules joined by `; ` are separate reasons, under the same stage
    ///   (`passport: yaw 0.21 rad; quality 0.31 < 0.4` → `passport: yaw … rad`, `passport: quality … < 0.4`);
    /// - numbers become `…`, except a limit after `<`, `>`, `≤` or `≥`
    ///   (`confidence 0.62 < 0.70` → `confidence … < 0.70`); quoted text becomes `"…"`.
    package static func reasons(of text: String) -> [String] {
        var clauses = text.components(separatedBy: ": ")
        var stage = ""
        if clauses.count > 1, let first = clauses.first, Self.isStageName(first) {
            stage = first + ": "
            clauses.removeFirst()
        }
        let kind = clauses.first ?? ""
        let rules = kind.components(separatedBy: "; ").filter { !$0.isEmpty }
        return (rules.isEmpty ? [""] : rules).map { stage + Self.withoutParticulars($0) }
    }

    private static func isStageName(_ word: String) -> Bool {
        !word.isEmpty && word.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-" }
    }

    /// Numbers (a word holding a digit, made of digits, signs, `.`, `x`, `%`, `#`)
    /// become `…` unless they follow a comparison; quoted text becomes `"…"`.
    private static func withoutParticulars(_ clause: String) -> String {
        var words: [String] = []
        var previous = ""
        for word in clause.split(separator: " ", omittingEmptySubsequences: false).map(String.init) {
            var replaced = word
            let core = word.trimmingCharacters(in: "()[],")
            if core.contains(where: \.isNumber),
               core.allSatisfy({ $0.isNumber || "+-.x×%#".contains($0) }),
               !["<", ">", "≤", "≥", "<=", ">="].contains(previous) {
                replaced = word.replacingOccurrences(of: core, with: "…")
            }
            words.append(replaced)
            previous = word
        }
        return Self.withoutQuotedText(words.joined(separator: " "))
    }

    private static func withoutQuotedText(_ text: String) -> String {
        var result = ""
        var inQuote = false
        for character in text {
            if character == "\"" {
                if !inQuote { result += "\"…\"" }
                inQuote.toggle()
            } else if !inQuote {
                result.append(character)
            }
        }
        return result
    }
}

private extension String {
    func trimmingCharacters(in set: String) -> String {
        var scalars = Substring(self)
        while let first = scalars.first, set.contains(first) { scalars.removeFirst() }
        while let last = scalars.last, set.contains(last) { scalars.removeLast() }
        return String(scalars)
    }
}
