import Foundation
import Pipeline
import Synchronization

/// Progress on stderr: a redrawn bar on a terminal (done/total when known,
/// images/s, MP/s, ETA), a plain line every few seconds otherwise, nothing
/// with `--quiet`.
final class ProgressReporter: Sendable {
    enum Mode { case bar, lines, quiet }

    private struct State {
        var lastDraw: Double = 0
        var drewBar = false
    }

    private let mode: Mode
    private let start = ProcessInfo.processInfo.systemUptime
    private let state = Mutex(State())

    init(quiet: Bool) {
        mode = quiet ? .quiet : (isatty(STDERR_FILENO) != 0 ? .bar : .lines)
    }

    func update(_ progress: RunProgress) {
        guard mode != .quiet, StandardError.isOpen else { return }
        let now = ProcessInfo.processInfo.systemUptime
        let text: String? = state.withLock { state in
            let interval = mode == .bar ? 0.1 : 5.0
            let isLast = progress.total == progress.done
            guard now - state.lastDraw >= interval || isLast else { return nil }
            state.lastDraw = now
            if mode == .bar { state.drewBar = true }
            return line(progress, elapsed: now - start)
        }
        guard let text else { return }
        let output = mode == .bar ? "\r\u{1B}[2K" + text : text + "\n"
        StandardError.write(output)
    }

    /// Ends the bar's line so later messages start on a fresh one.
    func finish() {
        if state.withLock({ $0.drewBar }) { StandardError.write("\n") }
    }

    private func line(_ p: RunProgress, elapsed: Double) -> String {
        let rate = elapsed > 0 ? Double(p.done) / elapsed : 0
        let mps = elapsed > 0 ? p.megapixels / elapsed : 0
        var parts: [String] = []
        if let total = p.total, total > 0 {
            let width = 24
            let filled = min(width, width * p.done / total)
            parts.append("[" + String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled) + "]")
            parts.append("\(p.done)/\(total)")
        } else {
            parts.append("\(p.done) images")
        }
        parts.append(String(format: "%.1f img/s", rate))
        parts.append(String(format: "%.1f MP/s", mps))
        if p.failed > 0 { parts.append("\(p.failed) failed") }
        if let total = p.total, rate > 0, total > p.done {
            parts.append("ETA " + Self.duration(Double(total - p.done) / rate))
        }
        return parts.joined(separator: "  ")
    }

    static func duration(_ seconds: Double) -> String {
        let s = Int(seconds.rounded())
        return s >= 3600 ? "\(s / 3600)h\(s % 3600 / 60)m" : s >= 60 ? "\(s / 60)m\(s % 60)s" : "\(s)s"
    }
}
