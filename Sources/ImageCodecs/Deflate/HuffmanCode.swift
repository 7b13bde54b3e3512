/// A canonical, length-limited prefix code for one deflate alphabet
/// (RFC 1951 §3.2.2), built from symbol frequencies.
///
/// Lengths come from the in-place minimum-redundancy algorithm of Moffat and
/// Katajainen over the frequency-sorted symbols; if the longest code exceeds
/// the limit, the length histogram is repaired (overlong codes are cut to
/// the limit and the Kraft sum is restored by lengthening the deepest
/// shorter codes), then lengths are handed out again in frequency order.
/// The result is always a complete code over at least two symbols, which
/// every inflater accepts.
package struct HuffmanCode: Sendable {
    /// Code length per symbol (0 = unused).
    package private(set) var lengths: [UInt8]
    /// Per symbol: the code bit-reversed (deflate sends Huffman codes
    /// most-significant bit first into a least-significant-bit-first stream)
    /// in the low 16 bits, the length in bits 24...31.
    package private(set) var packed: [UInt32]

    /// Builds the code. `frequencies.count` is the alphabet size; `maxLength` ≤ 15.
    package init(frequencies: UnsafeBufferPointer<UInt32>, maxLength: Int) {
        let count = frequencies.count
        precondition(count >= 2 && count <= 320 && (1...15).contains(maxLength) && (1 << maxLength) >= count)
        var used: [(frequency: UInt32, symbol: Int)] = []
        used.reserveCapacity(count)
        for symbol in 0..<count where frequencies[symbol] > 0 { used.append((frequencies[symbol], symbol)) }
        // A complete code needs two symbols: give unused ones a nominal count.
        var filler = 0
        while used.count < 2 {
            if frequencies[filler] == 0 { used.append((1, filler)) }
            filler += 1
        }
        // Ascending frequency; ties by symbol so the code is deterministic.
        used.sort { $0.frequency != $1.frequency ? $0.frequency < $1.frequency : $0.symbol < $1.symbol }

        var work = used.map { Int($0.frequency) }
        Self.minimumRedundancyLengths(&work)
        // work[i] is now the length of used[i]; lengths never increase along the array.
        var lengthCounts = [Int](repeating: 0, count: 64)
        for length in work { lengthCounts[length] += 1 }
        if work[0] > maxLength { Self.limit(&lengthCounts, to: maxLength) }

        var lengths = [UInt8](repeating: 0, count: count)
        var index = 0
        for length in stride(from: maxLength < work[0] ? maxLength : work[0], through: 1, by: -1) {
            for _ in 0..<lengthCounts[length] {
                lengths[used[index].symbol] = UInt8(length)
                index += 1
            }
        }
        self.lengths = lengths
        self.packed = Self.canonicalCodes(lengths)
    }

    /// Canonical codes (RFC 1951 §3.2.2) for `lengths`, bit-reversed and packed.
    package static func canonicalCodes(_ lengths: [UInt8]) -> [UInt32] {
        var lengthCounts = [UInt32](repeating: 0, count: 16)
        for length in lengths { lengthCounts[Int(length)] += 1 }
        lengthCounts[0] = 0
        var next = [UInt32](repeating: 0, count: 16)
        var code: UInt32 = 0
        for bits in 1...15 {
            code = (code + lengthCounts[bits - 1]) << 1
            next[bits] = code
        }
        var packed = [UInt32](repeating: 0, count: lengths.count)
        for (symbol, length) in lengths.enumerated() where length > 0 {
            let code = next[Int(length)]
            next[Int(length)] += 1
            var reversed: UInt32 = 0
            for bit in 0..<Int(length) where code & (1 << bit) != 0 { reversed |= 1 << (Int(length) - 1 - bit) }
            packed[symbol] = reversed | UInt32(length) << 24
        }
        return packed
    }

    /// Moffat–Katajainen: `a` holds ascending frequencies (at least two) and
    /// is overwritten with the optimal code lengths, in the same order.
    private static func minimumRedundancyLengths(_ a: inout [Int]) {
        let n = a.count
        // Phase 1: build the tree; node nodes reuse the array, leaves are consumed left to right.
        a[0] += a[1]
        var root = 0, leaf = 2
        for next in 1..<(n - 1) {
            if leaf >= n || a[root] < a[leaf] {
                a[next] = a[root]; a[root] = next; root += 1
            } else {
                a[next] = a[leaf]; leaf += 1
            }
            if leaf >= n || (root < next && a[root] < a[leaf]) {
                a[next] += a[root]; a[root] = next; root += 1
            } else {
                a[next] += a[leaf]; leaf += 1
            }
        }
        // Phase 2: parent pointers → depths of internal nodes.
        a[n - 2] = 0
        if n >= 3 {
            for next in stride(from: n - 3, through: 0, by: -1) { a[next] = a[a[next]] + 1 }
        }
        // Phase 3: internal-node depths → leaf depths.
        var available = 1, usedNodes = 0, depth = 0
        var node = n - 2, next = n - 1
        while available > 0 {
            while node >= 0 && a[node] == depth { usedNodes += 1; node -= 1 }
            while available > usedNodes { a[next] = depth; next -= 1; available -= 1 }
            available = 2 * usedNodes
            depth += 1
            usedNodes = 0
        }
    }

    /// Makes the length histogram fit `maxLength` while keeping the Kraft sum exactly 1.
    private static func limit(_ counts: inout [Int], to maxLength: Int) {
        for length in (maxLength + 1)..<counts.count where counts[length] > 0 {
            counts[maxLength] += counts[length]
            counts[length] = 0
        }
        // Kraft sum in units of 2^-maxLength.
        var total = 0
        for length in 1...maxLength { total += counts[length] << (maxLength - length) }
        let one = 1 << maxLength
        while total > one {
            // Take a leaf from the deepest level and make a shorter leaf into
            // a node with two children: the sum drops by one unit per step.
            counts[maxLength] -= 1
            for length in stride(from: maxLength - 1, through: 1, by: -1) where counts[length] > 0 {
                counts[length] -= 1
                counts[length + 1] += 2
                break
            }
            total -= 1
        }
    }
}
