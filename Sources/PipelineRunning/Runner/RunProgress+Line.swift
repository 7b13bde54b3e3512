import Foundation

extension RunProgress {
    /// One line of progress, `elapsed` seconds into the run: a bar of
    /// `barWidth` cells (none when nil), the share done, entries written,
    /// how far the current input is read, rates, failures and the time left.
    /// A stream has no total: the line says so and gives rates only.
    public func line(elapsed: Double, barWidth: Int?) -> String {
        var parts: [String] = []
        if let fraction {
            if let barWidth, barWidth > 0 {
                let filled = min(barWidth, Int((fraction * Double(barWidth)).rounded(.down)))
                parts.append("[" + String(repeating: "#", count: filled) + String(repeating: "-", count: barWidth - filled) + "]")
            }
            parts.append(String(format: "%3d%%", Int((fraction * 100).rounded(.down))))
        }
        parts.append(total.map { "\(done)/" + $0.counted("entry", "entries") } ?? done.counted("entry", "entries"))
        if total == nil {
            var read = inputCount > 1 ? "input \(input + 1)/\(inputCount) " : ""
            switch (position.unit, position.total) {
            case (.bytes, let size?): read += "\(Self.bytes(position.done)) of \(Self.bytes(size)) read"
            case (.bytes, nil): read += "\(Self.bytes(position.done)) read (a stream: no total)"
            case (.entries, let count?): read += "\(position.done) of " + count.counted("file", "files")
            case (.entries, nil): read += position.done.counted("file", "files")
            }
            parts.append(read)
        }
        parts.append(String(format: "%.1f img/s", elapsed > 0 ? Double(done) / elapsed : 0))
        parts.append(String(format: "%.1f MP/s", elapsed > 0 ? megapixels / elapsed : 0))
        if failed > 0 { parts.append("\(failed) failed") }
        if let left = secondsLeft(elapsed: elapsed), (fraction ?? 1) < 1 { parts.append("ETA " + Self.duration(left)) }
        return parts.joined(separator: "  ")
    }

    /// `42s`, `3m05s`, `2h07m`.
    public static func duration(_ seconds: Double) -> String {
        let s = Int(seconds.rounded())
        if s >= 3600 { return String(format: "%dh%02dm", s / 3600, s % 3600 / 60) }
        if s >= 60 { return String(format: "%dm%02ds", s / 60, s % 60) }
        return "\(s)s"
    }

    /// `812 B`, `4.2 MB`, `1.3 GB` (powers of 1000).
    public static func bytes(_ count: Int64) -> String {
        let units = ["B", "kB", "MB", "GB", "TB"]
        var value = Double(count), unit = 0
        while value >= 1000 && unit < units.count - 1 { value /= 1000; unit += 1 }
        return unit == 0 ? "\(count) B" : String(format: "%.1f", value) + " " + units[unit]
    }
}
