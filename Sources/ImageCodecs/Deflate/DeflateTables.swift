/// Fixed facts of the deflate format (RFC 1951 §3.2.5–3.2.7).
enum DeflateTables {
    /// Smallest and largest match length.
    static let minimumMatch = 3
    static let maximumMatch = 258
    /// Size of the literal/length alphabet that can appear in a stream (286 and 287 never do).
    static let literalLengthSymbols = 286
    static let distanceSymbols = 30
    static let codeLengthSymbols = 19
    static let endOfBlock = 256

    /// Order in which the code-length code lengths are sent.
    static let codeLengthOrder: [Int] = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]

    /// Per match length 0...258 (0...2 unused): length symbol in bits 0...8,
    /// extra-bit count in bits 16...19, extra-bit value in bits 20...27.
    static let lengthCodes: [UInt32] = {
        // First length of each symbol 257...285 and its extra bits.
        let bases = [3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31,
                     35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258]
        let extras = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2,
                      3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0]
        var table = [UInt32](repeating: 0, count: maximumMatch + 1)
        for (index, base) in bases.enumerated() {
            let last = index + 1 < bases.count ? min(bases[index + 1] - 1, maximumMatch) : maximumMatch
            for length in base...last {
                table[length] = UInt32(257 + index) | UInt32(extras[index]) << 16 | UInt32(length - base) << 20
            }
        }
        return table
    }()

    /// Extra bits of length symbols 257...285, indexed by symbol − 257.
    static let lengthExtraBits: [Int] = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2,
                                         3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0]
}
