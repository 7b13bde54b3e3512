/// PNG's per-row filters (PNG spec §9.2) for 8-bit samples (1-byte grey or
/// 3-byte RGB pixels), vectorized.
///
/// Encoding never depends on earlier *filtered* bytes, only on the raw
/// current and previous rows, so every filter runs 16 or 32 bytes at a time.
enum PNGRowFilter: UInt8, Sendable, CaseIterable {
    case none = 0, sub = 1, up = 2, average = 3, paeth = 4

    /// Writes the filter-type byte and `count` filtered bytes of `current` to `output`.
    /// `previous` is the raw row above (nil for the first row, which PNG treats as zeros).
    @inline(__always)
    func apply(current: UnsafePointer<UInt8>, previous: UnsafePointer<UInt8>?, count: Int, pixelBytes: Int,
               into output: UnsafeMutablePointer<UInt8>) {
        output[0] = rawValue
        let out = output + 1
        switch self {
        case .none:
            out.update(from: current, count: count)
        case .sub:
            Self.sub(current, count, pixelBytes, out)
        case .up:
            if let previous { Self.up(current, previous, count, out) } else { out.update(from: current, count: count) }
        case .average:
            Self.average(current, previous, count, pixelBytes, out)
        case .paeth:
            if let previous { Self.paeth(current, previous, count, pixelBytes, out) } else { Self.sub(current, count, pixelBytes, out) }
        }
    }

    private static func sub(_ current: UnsafePointer<UInt8>, _ count: Int, _ pixelBytes: Int, _ out: UnsafeMutablePointer<UInt8>) {
        let head = min(count, pixelBytes)
        for index in 0..<head { out[index] = current[index] }
        var index = head
        let raw = UnsafeRawPointer(current), output = UnsafeMutableRawPointer(out)
        while index + 32 <= count {
            let value = raw.loadUnaligned(fromByteOffset: index, as: SIMD32<UInt8>.self)
            let left = raw.loadUnaligned(fromByteOffset: index - pixelBytes, as: SIMD32<UInt8>.self)
            output.storeBytes(of: value &- left, toByteOffset: index, as: SIMD32<UInt8>.self)
            index += 32
        }
        while index < count {
            out[index] = current[index] &- current[index - pixelBytes]
            index += 1
        }
    }

    private static func up(_ current: UnsafePointer<UInt8>, _ previous: UnsafePointer<UInt8>, _ count: Int,
                           _ out: UnsafeMutablePointer<UInt8>) {
        var index = 0
        let raw = UnsafeRawPointer(current), above = UnsafeRawPointer(previous), output = UnsafeMutableRawPointer(out)
        while index + 32 <= count {
            let value = raw.loadUnaligned(fromByteOffset: index, as: SIMD32<UInt8>.self)
            let up = above.loadUnaligned(fromByteOffset: index, as: SIMD32<UInt8>.self)
            output.storeBytes(of: value &- up, toByteOffset: index, as: SIMD32<UInt8>.self)
            index += 32
        }
        while index < count {
            out[index] = current[index] &- previous[index]
            index += 1
        }
    }

    /// Average: prediction ⌊(left + up) / 2⌋ (scalar; not a default).
    private static func average(_ current: UnsafePointer<UInt8>, _ previous: UnsafePointer<UInt8>?, _ count: Int,
                                _ pixelBytes: Int, _ out: UnsafeMutablePointer<UInt8>) {
        for index in 0..<count {
            let left = index >= pixelBytes ? Int(current[index - pixelBytes]) : 0
            let up = previous.map { Int($0[index]) } ?? 0
            out[index] = current[index] &- UInt8((left + up) >> 1)
        }
    }

    private static func paeth(_ current: UnsafePointer<UInt8>, _ previous: UnsafePointer<UInt8>, _ count: Int,
                              _ pixelBytes: Int, _ out: UnsafeMutablePointer<UInt8>) {
        // First pixel: left and upper-left are zero, so the predictor is `up`.
        let head = min(count, pixelBytes)
        for index in 0..<head { out[index] = current[index] &- previous[index] }
        // Branch-free on 16-bit integers over pointers (no checked index
        // arithmetic), which the compiler vectorizes; Swift's generic SIMD
        // mask helpers do not inline and were ~30× slower.
        guard count > head else { return }
        let value = current + head, left = current + head - pixelBytes
        let up = previous + head, upLeft = previous + head - pixelBytes
        let result = out + head
        for index in 0..<(count - head) {
            let a = Int16(left[index]), b = Int16(up[index]), c = Int16(upLeft[index])
            let toLeft = b &- c, toUp = a &- c, total = toLeft &+ toUp
            let pa = toLeft < 0 ? 0 &- toLeft : toLeft
            let pb = toUp < 0 ? 0 &- toUp : toUp
            let pc = total < 0 ? 0 &- total : total
            let notC = pb <= pc ? b : c
            let prediction = (pa <= pb) && (pa <= pc) ? a : notC
            result[index] = value[index] &- UInt8(truncatingIfNeeded: prediction)
        }
    }
}
