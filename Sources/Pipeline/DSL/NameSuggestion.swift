/// The known names close to a mistyped one, for "did you mean …?" in the
/// messages of an unknown pipeline, stage or stage option (``PipelineError``).
///
/// A known name is close when, ignoring case, it is
/// - at most two edits away (insert, delete, replace one character), and
///   fewer than half the typed name's characters: `facs` → `faces`;
/// - a longer name the typed one starts, typed with at least three
///   characters: `detect` → `detect-faces`;
/// - made of `-`/`_`-separated words that hold each typed word in order,
///   each equal, or (three characters or more) the start of the word or
///   one edit away from it: `min-sise` → `min-face-size`,
///   `filter-conf` → `filter-confidence`.
///
/// The nearest names by edit distance come first; at most three are given.
package enum NameSuggestion {
    /// The known names close to `typed`, nearest first (list order among equals).
    package static func closeMatches(to typed: String, among known: [String]) -> [String] {
        let name = typed.lowercased()
        guard !name.isEmpty else { return [] }
        var matches: [(name: String, distance: Int, order: Int)] = []
        for (order, candidate) in known.enumerated() {
            guard candidate != typed else { continue }
            let other = candidate.lowercased()
            let distance = editDistance(name, other)
            let near = distance <= 2 && distance * 2 < name.count
            let started = name.count >= 3 && other.hasPrefix(name)
            if near || started || wordsMatch(name, other) {
                matches.append((candidate, distance, order))
            }
        }
        return matches.sorted { ($0.distance, $0.order) < ($1.distance, $1.order) }.prefix(3).map(\.name)
    }

    /// ` (did you mean X?)`, ` (did you mean X or Y?)`, or "" when nothing is close.
    package static func clause(for typed: String, among known: [String]) -> String {
        let matches = closeMatches(to: typed, among: known)
        guard let last = matches.last else { return "" }
        let listed = matches.count == 1 ? last : matches.dropLast().joined(separator: ", ") + " or " + last
        return " (did you mean \(listed)?)"
    }

    /// Whether every word of `typed` (two or more words) matches a word of
    /// `candidate` in order: equal, its start (three characters or more),
    /// or one edit away (three characters or more).
    static func wordsMatch(_ typed: String, _ candidate: String) -> Bool {
        let typedWords = words(typed), candidateWords = words(candidate)
        guard typedWords.count >= 2 else { return false }
        var next = candidateWords[...]
        for word in typedWords {
            guard let found = next.firstIndex(where: { wordMatches(word, $0) }) else { return false }
            next = next[(found + 1)...]
        }
        return true
    }

    private static func wordMatches(_ typed: String, _ word: String) -> Bool {
        if typed == word { return true }
        guard typed.count >= 3 else { return false }
        return word.hasPrefix(typed) || editDistance(typed, word) <= 1
    }

    private static func words(_ name: String) -> [String] {
        name.split(whereSeparator: { $0 == "-" || $0 == "_" }).map(String.init)
    }

    /// Levenshtein distance over characters.
    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }
}
