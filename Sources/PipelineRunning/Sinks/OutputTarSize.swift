import Pipeline

/// `--output-tar-size SIZE`: bytes, or a whole number with `K`, `M`, `G` or
/// `T` (powers of 1024, an optional `iB` or `B` after it, any case): `1G`,
/// `512M`, `1073741824`. At least 1 byte, at most 1 PiB.
public enum OutputTarSize {
    public static func bytes(_ text: String) throws(PipelineError) -> Int {
        var digits = Substring(text.uppercased())
        for unit in ["IB", "B"] where digits.hasSuffix(unit) && digits.count > unit.count {
            digits = digits.dropLast(unit.count)
            break
        }
        var scale = 1
        if let last = digits.last, let power = ["K": 10, "M": 20, "G": 30, "T": 40][String(last)] {
            scale = 1 << power
            digits = digits.dropLast()
        }
        guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }), let count = Int(digits),
              count > 0, count <= (1 << 50) / scale else {
            throw .invalidRunConfiguration("--output-tar-size takes a size such as 1G, 512M or 1073741824 (1 byte … 1P), got \"\(text)\"")
        }
        return count * scale
    }
}
