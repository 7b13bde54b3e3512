/// Counts texts by reason as they come, in manifest order
/// (``ReasonGroup/reasons(of:)``): one ``ReasonGroup`` per reason, so its
/// memory grows with the kinds of problems, not with the entries. Past
/// ``maxReasons`` kinds, further new reasons are counted together in one
/// last group (``otherReasons``), its example the first of them.
package struct ReasonTally: Sendable {
    /// The most reasons counted apart.
    package static let maxReasons = 1000
    /// The reason of the group that counts what comes past ``maxReasons``.
    package static let otherReasons = "other reasons (more than 1000 kinds)"

    private var groups: [ReasonGroup] = []
    private var positions: [String: Int] = [:]
    private var other: ReasonGroup?

    package init() {}

    /// Counts `text` (an error, rejection or skip text) of `entry`: once in
    /// each of its reasons.
    package mutating func add(_ text: String, entry: String) {
        for reason in ReasonGroup.reasons(of: text) {
            if let position = positions[reason] {
                groups[position].count += 1
            } else if groups.count < Self.maxReasons {
                positions[reason] = groups.count
                groups.append(ReasonGroup(reason: reason, count: 1, example: entry, exampleText: text))
            } else if other != nil {
                other!.count += 1
            } else {
                other = ReasonGroup(reason: Self.otherReasons, count: 1, example: entry, exampleText: text)
            }
        }
    }

    /// The groups, most frequent first, then by reason; the group of other
    /// reasons, when there is one, last.
    package var grouped: [ReasonGroup] {
        groups.sorted { $0.count != $1.count ? $0.count > $1.count : $0.reason < $1.reason } + (other.map { [$0] } ?? [])
    }
}
