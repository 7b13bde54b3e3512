/// Each input's share of a run's work, for progress: by size when every
/// input's size is known before reading (archive and image files), else an
/// equal share each (folders are listed, and streams read, only when reached).
package enum InputShares {
    package static func of(sizes: [Int64?]) -> [Double] {
        guard !sizes.isEmpty else { return [] }
        let known = sizes.compactMap { $0 }
        let sum = known.reduce(0, +)
        guard known.count == sizes.count, sum > 0 else {
            return Array(repeating: 1 / Double(sizes.count), count: sizes.count)
        }
        return known.map { Double($0) / Double(sum) }
    }
}
