import Foundation

/// Which inputs each shard of a sharded run processes: a pure function of
/// the input list, stable across releases.
///
/// The inputs are sorted by path (byte order of the UTF-8 text, as given on
/// the command line), so every task computes the same list however it was
/// listed; each shard takes one contiguous block of that list, balanced by
/// size: input `k`, whose bytes span `[C, C + s)` of the total `S`, goes to
/// shard `⌊N·(2C + s) / 2S⌋` (its midpoint's share; equal counts when every
/// size is 0). Contiguous blocks are what make the merge a concatenation: the
/// merged outputs equal one run over the sorted list.
package struct ShardAssignment: Sendable, Equatable {
    /// Paths as given, sorted.
    package let paths: [String]
    /// Sizes in bytes, in `paths` order (a folder: the bytes of its files).
    package let sizes: [Int64]
    /// `blocks[i]`: indices into `paths` of shard `i`.
    package let blocks: [Range<Int>]

    package init(paths unsorted: [String], sizes unsortedSizes: [Int64], count: Int) {
        precondition(unsorted.count == unsortedSizes.count && count >= 1)
        let order = unsorted.indices.sorted { a, b in
            let x = Array(unsorted[a].utf8), y = Array(unsorted[b].utf8)
            return x == y ? a < b : x.lexicographicallyPrecedes(y)
        }
        paths = order.map { unsorted[$0] }
        sizes = order.map { max(unsortedSizes[$0], 0) }
        let weights = sizes.reduce(0, +) > 0 ? sizes : [Int64](repeating: 1, count: sizes.count)
        let total = UInt64(weights.reduce(0, +))
        var shardOf: [Int] = []
        var before: UInt64 = 0
        for weight in weights.map(UInt64.init) {
            // ⌊N·(2C + s) / 2S⌋ in 128-bit arithmetic: no overflow for any size.
            let product = (2 * before + weight).multipliedFullWidth(by: UInt64(count))
            let shard = total == 0 ? 0 : Int((2 * total).dividingFullWidth(product).quotient)
            shardOf.append(min(shard, count - 1))
            before += weight
        }
        blocks = (0..<count).map { shard in
            let start = shardOf.firstIndex { $0 >= shard } ?? shardOf.count
            let end = shardOf.firstIndex { $0 > shard } ?? shardOf.count
            return start..<max(start, end)
        }
    }

    /// The paths shard `index` processes, in sorted order.
    package func paths(of index: Int) -> [String] { Array(paths[blocks[index]]) }

    /// Bytes of an input as the assignment weighs it: a file's size, a
    /// folder's files (recursively, links not followed); nil for a stream.
    package static func size(ofInput path: String) -> Int64? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        switch status.st_mode & S_IFMT {
        case S_IFREG: return Int64(status.st_size)
        case S_IFDIR:
            var bytes: Int64 = 0
            let keys: [URLResourceKey] = [.isRegularFileKey, .fileSizeKey]
            guard let walk = FileManager.default.enumerator(at: URL(fileURLWithPath: path), includingPropertiesForKeys: keys) else { return 0 }
            for case let url as URL in walk {
                guard let values = try? url.resourceValues(forKeys: Set(keys)), values.isRegularFile == true else { continue }
                bytes += Int64(values.fileSize ?? 0)
            }
            return bytes
        default: return nil
        }
    }
}
