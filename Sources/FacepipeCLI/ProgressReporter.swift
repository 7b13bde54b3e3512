import Foundation
import Pipeline
import PipelineRunning
import RunFolders
import Synchronization

/// Progress and notices on stderr (never on stdout, never in the outputs):
/// on a terminal a one-line bar redrawn in place (``RunProgress/line(elapsed:barWidth:)``),
/// elsewhere a plain line every `lineInterval` seconds; the first line
/// waits until it can say the time left (``RunProgress/isReadyToShow``);
/// with `--quiet` no progress. Problems are printed as they happen: an
/// input that cannot be read always, skipped and failed entries (the first
/// `noticeLimit`, unless `--quiet`); the end of the run groups them all by
/// reason.
final class ProgressReporter: Sendable {
    enum Mode { case bar, lines, quiet }

    private struct State {
        var lastDraw: Double = -.infinity
        var bar: String?
        var notices = 0
    }

    static let lineInterval = 10.0
    static let noticeLimit = 20

    private let mode: Mode
    private let start = ProcessInfo.processInfo.systemUptime
    private let state = Mutex(State())

    init(quiet: Bool) {
        mode = quiet ? .quiet : (isatty(STDERR_FILENO) != 0 ? .bar : .lines)
    }

    func update(_ progress: RunProgress) {
        guard mode != .quiet, StandardError.isOpen else { return }
        let now = ProcessInfo.processInfo.systemUptime
        let output: String? = state.withLock { state in
            let interval = mode == .bar ? 0.1 : Self.lineInterval
            let isLast = progress.total == progress.done
            guard (now - state.lastDraw >= interval && progress.isReadyToShow) || isLast else { return nil }
            state.lastDraw = now
            let text = progress.line(elapsed: now - start, barWidth: mode == .bar ? 24 : nil)
            guard mode == .bar else { return text + "\n" }
            state.bar = text
            return "\r\u{1B}[2K" + text
        }
        if let output { StandardError.write(output) }
    }

    func notice(_ notice: RunNotice) {
        guard StandardError.isOpen else { return }
        let message: String
        var isInputFailure = false
        switch notice {
        case let .inputFailed(input, reason):
            message = "facepipe: " + TerminalText.escaped("\(input): \(reason)")
            isInputFailure = true
        case let .entrySkipped(skipped):
            message = "facepipe: skipped " + TerminalText.escaped(EntryDisplayName.of(archive: skipped.archive, entry: skipped.name) + ": \(skipped.reason)")
        case let .entryFailed(input, entry, reason):
            message = "facepipe: failed " + TerminalText.escaped(EntryDisplayName.of(archive: input, entry: entry) + ": \(reason)")
        }
        let output: String? = state.withLock { state in
            var text = message + "\n"
            if !isInputFailure {
                guard mode != .quiet, state.notices <= Self.noticeLimit else { return nil }
                state.notices += 1
                if state.notices > Self.noticeLimit {
                    text = "facepipe: more skipped and failed entries: grouped by reason at the end\n"
                }
            }
            guard let bar = state.bar else { return text }
            return "\r\u{1B}[2K" + text + bar
        }
        if let output { StandardError.write(output) }
    }

    /// Ends the bar's line so later messages start on a fresh one.
    func finish() {
        if state.withLock({ $0.bar != nil }) { StandardError.write("\n") }
    }

    private static func write(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }
}
