/// Assigns arena offsets to tensors from their lifetimes: tensors whose
/// lifetimes (closed intervals of step indices) overlap never share memory;
/// others may. Greedy best-fit, largest tensor first, 16-float alignment.
struct ArenaLayout {
    struct Lifetime {
        var tensor: Int
        var size: Int
        var first: Int
        var last: Int
    }

    private(set) var offsets: [Int: Int] = [:]
    private(set) var size = 0

    init(_ lifetimes: [Lifetime]) {
        let ordered = lifetimes.sorted { ($0.size, $1.tensor) > ($1.size, $0.tensor) }
        var placed: [(offset: Int, end: Int, first: Int, last: Int)] = []
        for item in ordered {
            let aligned = (item.size + 15) / 16 * 16
            let conflicts = placed
                .filter { $0.first <= item.last && item.first <= $0.last }
                .sorted { $0.offset < $1.offset }
            var candidate = 0
            for block in conflicts {
                if candidate + aligned <= block.offset { break }
                candidate = max(candidate, block.end)
            }
            placed.append((candidate, candidate + aligned, item.first, item.last))
            offsets[item.tensor] = candidate
            size = max(size, candidate + aligned)
        }
    }
}
