/// The header of a dynamic-Huffman deflate block (RFC 1951 §3.2.7): the
/// literal/length and distance code lengths, run-length coded with symbols
/// 16 (repeat previous 3–6×), 17 (3–10 zeros) and 18 (11–138 zeros), and
/// themselves Huffman coded with a code of at most 7 bits per length.
struct DynamicBlockHeader {
    private let literalCount: Int      // HLIT + 257
    private let distanceCount: Int     // HDIST + 1
    private let codeLengthCount: Int   // HCLEN + 4
    private let codeLengthCode: HuffmanCode
    /// Run-length coded lengths: symbol in bits 0...7, extra value in bits 8...15.
    private let tokens: [UInt16]

    /// Bits the header takes after BFINAL/BTYPE.
    let bitCount: Int

    init(literalLengths: [UInt8], distanceLengths: [UInt8]) {
        var literalCount = 257
        for symbol in stride(from: literalLengths.count - 1, through: 257, by: -1) where literalLengths[symbol] != 0 {
            literalCount = symbol + 1
            break
        }
        var distanceCount = 1
        for symbol in stride(from: distanceLengths.count - 1, through: 1, by: -1) where distanceLengths[symbol] != 0 {
            distanceCount = symbol + 1
            break
        }
        let all = Array(literalLengths[0..<literalCount]) + Array(distanceLengths[0..<distanceCount])

        var tokens: [UInt16] = []
        tokens.reserveCapacity(all.count)
        var index = 0
        while index < all.count {
            let length = all[index]
            var run = 1
            while index + run < all.count && all[index + run] == length { run += 1 }
            index += run
            if length == 0 {
                while run >= 11 {
                    let take = min(run, 138)
                    tokens.append(18 | UInt16(take - 11) << 8)
                    run -= take
                }
                if run >= 3 {
                    tokens.append(17 | UInt16(run - 3) << 8)
                    run = 0
                }
            } else {
                tokens.append(UInt16(length))
                run -= 1
                while run >= 3 {
                    let take = min(run, 6)
                    tokens.append(16 | UInt16(take - 3) << 8)
                    run -= take
                }
            }
            for _ in 0..<run { tokens.append(UInt16(length)) }
        }

        var frequencies = [UInt32](repeating: 0, count: DeflateTables.codeLengthSymbols)
        for token in tokens { frequencies[Int(token & 0xFF)] += 1 }
        let code = frequencies.withUnsafeBufferPointer { HuffmanCode(frequencies: $0, maxLength: 7) }
        var codeLengthCount = 4
        for (position, symbol) in DeflateTables.codeLengthOrder.enumerated() where code.lengths[symbol] != 0 {
            codeLengthCount = max(codeLengthCount, position + 1)
        }

        var bits = 5 + 5 + 4 + 3 * codeLengthCount
        for token in tokens {
            let symbol = Int(token & 0xFF)
            bits += Int(code.lengths[symbol]) + Self.extraBits(symbol)
        }
        self.literalCount = literalCount
        self.distanceCount = distanceCount
        self.codeLengthCount = codeLengthCount
        self.codeLengthCode = code
        self.tokens = tokens
        self.bitCount = bits
    }

    private static func extraBits(_ symbol: Int) -> Int {
        switch symbol {
        case 16: 2
        case 17: 3
        case 18: 7
        default: 0
        }
    }

    func write(into writer: inout DeflateBitWriter) {
        writer.write(UInt64(literalCount - 257), bits: 5)
        writer.write(UInt64(distanceCount - 1), bits: 5)
        writer.write(UInt64(codeLengthCount - 4), bits: 4)
        writer.flush()
        for position in 0..<codeLengthCount {
            writer.write(UInt64(codeLengthCode.lengths[DeflateTables.codeLengthOrder[position]]), bits: 3)
            if position % 8 == 7 { writer.flush() }
        }
        writer.flush()
        for token in tokens {
            let symbol = Int(token & 0xFF)
            writer.write(code: codeLengthCode.packed[symbol])
            writer.write(UInt64(token >> 8), bits: Self.extraBits(symbol))
            writer.flush()
        }
    }
}
