import CFacepipeShims

/// A deflate (RFC 1951) block compressor tuned for PNG's filtered rows.
///
/// Each call compresses one block of at most `maxBlockLength` bytes:
/// 1. one scan (`facepipe_deflate_scan`, C) for runs (distance 1: repeated
///    bytes; distance 3: a repeated RGB pixel) checked at every eighth byte
///    after the last run, 64 bytes per comparison with AVX2, so the common
///    case — no run — costs one branch per 64 bytes; it counts literals into
///    sixteen histograms (so repeated bytes do not serialize on one counter);
/// 2. length-limited Huffman codes for that block;
/// 3. the exact size of the dynamic block is compared with stored blocks and
///    the smaller is written (so incompressible data grows by at most
///    5 bytes per 65 535).
///
/// Not thread-safe; one compressor per encode. Scratch memory is allocated
/// once in `init` and owned by this object.
final class DeflateCompressor {
    let maxBlockLength: Int
    let findsRuns: Bool
    /// The scan compares 64 bytes per step (AVX2) and literal runs of 16
    /// and more are coded by `facepipe_deflate_write_literals` (AVX-512)
    /// when the CPU has them; the bytes written are the same either way.
    let usesVectors: Bool
    /// Per block, for `facepipe_deflate_write_literals`: low and high bytes of
    /// each literal's code with a 1 above its top bit.
    private let markedCodes: UnsafeMutablePointer<UInt8>
    private let pieces: UnsafeMutablePointer<facepipe_run_piece>
    private let pieceCapacity: Int
    /// One 256-entry literal histogram per byte of two 8-byte words, so
    /// repeated bytes do not wait on one counter's store.
    private let literalCounts: UnsafeMutablePointer<UInt32>
    private static let histogramTables = 16

    init(maxBlockLength: Int, findsRuns: Bool, usesVectors: Bool = true) {
        precondition(maxBlockLength > 0)
        self.maxBlockLength = maxBlockLength
        self.findsRuns = findsRuns
        self.usesVectors = usesVectors
        markedCodes = .allocate(capacity: 512)
        // Runs are at least 8 bytes and each piece covers at least 3 of them.
        pieceCapacity = maxBlockLength / 3 + 4
        pieces = .allocate(capacity: pieceCapacity)
        literalCounts = .allocate(capacity: Self.histogramTables * 256)
    }

    deinit {
        pieces.deallocate()
        literalCounts.deallocate()
        markedCodes.deallocate()
    }

    /// Upper bound on the bytes one block of `length` bytes adds to the stream.
    static func blockBound(length: Int) -> Int {
        length + 6 * storedBlockCount(length) + 2
    }

    private static func storedBlockCount(_ length: Int) -> Int { max(1, (length + 65534) / 65535) }

    /// Appends one deflate block holding `block` to `writer`.
    func compress(_ block: UnsafeRawBufferPointer, isFinal: Bool, into writer: inout DeflateBitWriter) {
        let length = block.count
        precondition(length <= maxBlockLength && writer.remainingCapacity >= Self.blockBound(length: length))
        guard let base = block.baseAddress, length > 0 else {
            // An empty block: fixed Huffman codes (BTYPE 01) with only end-of-block (7 zero bits).
            writer.write(isFinal ? 0b011 : 0b010, bits: 3 + 7)
            writer.flush()
            return
        }
        let source = base.assumingMemoryBound(to: UInt8.self)
        var literalFrequencies = [UInt32](repeating: 0, count: DeflateTables.literalLengthSymbols)
        var distanceFrequencies = [UInt32](repeating: 0, count: DeflateTables.distanceSymbols)
        let pieceCount = scan(source, length, &literalFrequencies, &distanceFrequencies)

        // 14 bits, not deflate's 15: four literals then fit between two flushes (costs < 0.1 % in size).
        let literalCode = literalFrequencies.withUnsafeBufferPointer { HuffmanCode(frequencies: $0, maxLength: 14) }
        let distanceCode = distanceFrequencies.withUnsafeBufferPointer { HuffmanCode(frequencies: $0, maxLength: 15) }
        let header = DynamicBlockHeader(literalLengths: literalCode.lengths, distanceLengths: distanceCode.lengths)

        var dynamicBits = 3 + header.bitCount
        for symbol in 0..<DeflateTables.literalLengthSymbols where literalFrequencies[symbol] > 0 {
            var bits = Int(literalCode.lengths[symbol])
            if symbol > DeflateTables.endOfBlock { bits += DeflateTables.lengthExtraBits[symbol - 257] }
            dynamicBits += Int(literalFrequencies[symbol]) * bits
        }
        for symbol in 0..<DeflateTables.distanceSymbols where distanceFrequencies[symbol] > 0 {
            dynamicBits += Int(distanceFrequencies[symbol]) * Int(distanceCode.lengths[symbol])  // distances 1...4: no extra bits
        }
        let storedBits = 8 * length + 40 * Self.storedBlockCount(length)
        guard dynamicBits <= storedBits else {
            writeStored(block, isFinal: isFinal, into: &writer)
            return
        }
        let start = writer.position
        writer.write(isFinal ? 0b101 : 0b100, bits: 3)  // BFINAL, BTYPE 10 (dynamic)
        header.write(into: &writer)
        literalCode.packed.withUnsafeBufferPointer { literals in
            distanceCode.packed.withUnsafeBufferPointer { distances in
                writeSymbols(source, length, pieceCount, literals.baseAddress!, distances.baseAddress!, into: &writer)
            }
        }
        assert(writer.position - start <= (dynamicBits + 7) / 8 + 1)
        _ = start
    }

    // MARK: Runs and histograms

    /// Finds runs of at least 8 bytes at distance 1 or 3, records them as
    /// pieces of at most 258 bytes and counts the literals between them
    /// (`facepipe_deflate_scan`). Returns the number of pieces.
    private func scan(_ source: UnsafePointer<UInt8>, _ length: Int,
                      _ literalFrequencies: inout [UInt32], _ distanceFrequencies: inout [UInt32]) -> Int {
        let counts = literalCounts
        counts.initialize(repeating: 0, count: Self.histogramTables * 256)
        let count = DeflateTables.lengthCodes.withUnsafeBufferPointer { lengthCodes in
            literalFrequencies.withUnsafeMutableBufferPointer { lengths in
                distanceFrequencies.withUnsafeMutableBufferPointer { distances in
                    facepipe_deflate_scan(source, length, findsRuns ? 1 : 0, usesVectors ? 1 : 0, lengthCodes.baseAddress!,
                                          pieces, counts, lengths.baseAddress!, distances.baseAddress!)
                }
            }
        }
        for byte in 0..<256 {
            var total: UInt32 = 0
            for table in 0..<Self.histogramTables { total &+= counts[table * 256 + byte] }
            literalFrequencies[byte] = total
        }
        literalFrequencies[DeflateTables.endOfBlock] = 1
        return count
    }

    // MARK: Output

    private func writeSymbols(_ source: UnsafePointer<UInt8>, _ length: Int, _ pieceCount: Int,
                              _ literals: UnsafePointer<UInt32>, _ distances: UnsafePointer<UInt32>,
                              into writer: inout DeflateBitWriter) {
        // Longest literal code decides how many literals fit between flushes (≤ 56 bits).
        var longest: UInt32 = 0
        for byte in 0..<256 { longest = max(longest, literals[byte] >> 24) }
        let fourPerFlush = longest <= 14
        let marked: UnsafePointer<UInt8>?
        if usesVectors && fourPerFlush && facepipe_deflate_vector_literals_available() != 0 {
            for byte in 0..<256 {
                let code = literals[byte]
                let value = code == 0 ? 0 : (code & 0xFFFF) | 1 << (code >> 24)
                markedCodes[byte] = UInt8(truncatingIfNeeded: value)
                markedCodes[256 + byte] = UInt8(truncatingIfNeeded: value >> 8)
            }
            marked = UnsafePointer(markedCodes)
        } else {
            marked = nil
        }
        let lengthCodes = DeflateTables.lengthCodes
        var position = 0
        lengthCodes.withUnsafeBufferPointer { lengthCodes in
            for index in 0..<pieceCount {
                let piece = pieces[index]
                let literalCount = Int(piece.literals_before)
                Self.writeLiterals(source + position, literalCount, literals, marked, fourPerFlush, &writer)
                let lengthCode = lengthCodes[Int(piece.length)]
                writer.write(code: literals[Int(lengthCode & 0x1FF)])
                writer.write(UInt64(lengthCode >> 20), bits: Int((lengthCode >> 16) & 0xF))
                writer.write(code: distances[Int(piece.distance) - 1])
                writer.flush()
                position += literalCount + Int(piece.length)
            }
        }
        Self.writeLiterals(source + position, length - position, literals, marked, fourPerFlush, &writer)
        writer.write(code: literals[DeflateTables.endOfBlock])
        writer.flush()
    }

    @inline(__always)
    private static func writeLiterals(_ source: UnsafePointer<UInt8>, _ count: Int, _ codes: UnsafePointer<UInt32>,
                                      _ marked: UnsafePointer<UInt8>?, _ fourPerFlush: Bool, _ writer: inout DeflateBitWriter) {
        var index = 0
        if let marked, count >= 16 {
            index = writer.withCStream { facepipe_deflate_write_literals(&$0, source, count, marked) }
        }
        if fourPerFlush {
            while index + 4 <= count {
                writer.write(code: codes[Int(source[index])])
                writer.write(code: codes[Int(source[index + 1])])
                writer.write(code: codes[Int(source[index + 2])])
                writer.write(code: codes[Int(source[index + 3])])
                writer.flush()
                index += 4
            }
        } else {
            while index + 3 <= count {
                writer.write(code: codes[Int(source[index])])
                writer.write(code: codes[Int(source[index + 1])])
                writer.write(code: codes[Int(source[index + 2])])
                writer.flush()
                index += 3
            }
        }
        while index < count {
            writer.write(code: codes[Int(source[index])])
            writer.flush()
            index += 1
        }
    }

    /// Stored blocks (BTYPE 00) of at most 65 535 bytes each.
    private func writeStored(_ block: UnsafeRawBufferPointer, isFinal: Bool, into writer: inout DeflateBitWriter) {
        var offset = 0
        repeat {
            let count = min(65535, block.count - offset)
            let last = isFinal && offset + count == block.count
            writer.write(last ? 1 : 0, bits: 3)
            writer.alignToByte()
            writer.write(UInt64(count) | UInt64(~UInt16(count)) << 16, bits: 32)
            writer.flush()
            writer.writeAligned(UnsafeRawBufferPointer(rebasing: block[offset..<(offset + count)]))
            offset += count
        } while offset < block.count
    }
}
