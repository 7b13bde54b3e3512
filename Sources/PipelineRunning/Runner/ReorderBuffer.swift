/// Holds results that finished early and releases them in sequence order
/// (0, 1, 2, …) whatever order they arrive in.
struct ReorderBuffer<Element> {
    private var waiting: [Int: Element] = [:]
    /// The sequence number the next released element must have.
    private(set) var nextSequence = 0

    var bufferedCount: Int { waiting.count }

    /// Accepts `element` for `sequence` and returns every element now releasable, in order.
    mutating func insert(_ element: Element, at sequence: Int) -> [Element] {
        precondition(sequence >= nextSequence && waiting[sequence] == nil, "sequence \(sequence) delivered twice")
        waiting[sequence] = element
        var released: [Element] = []
        while let next = waiting.removeValue(forKey: nextSequence) {
            released.append(next)
            nextSequence += 1
        }
        return released
    }
}
