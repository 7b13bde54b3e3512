import Foundation
import Pipeline
import PipelineRunning
import Testing
import _TestSupport

/// The share done, the time left and the progress line, from what the
/// runner reports: bytes of archives, entries of folders, nothing for streams.
struct RunProgressTests {
    @Test func oneArchiveByBytes() {
        var progress = RunProgress(done: 10, read: 10, inputCount: 1,
                                   position: ReadPosition(unit: .bytes, done: 250, total: 1000), currentShare: 1)
        #expect(progress.fraction == 0.25)
        #expect(progress.secondsLeft(elapsed: 30) == 90)
        // Entries read but not yet written hold the share back.
        progress.done = 5
        #expect(progress.fraction == 0.125)
        let line = progress.line(elapsed: 30, barWidth: 8)
        #expect(line.hasPrefix("[#-------]   12%  5 entries  250 B of 1.0 kB read"), "\(line)")
        #expect(line.hasSuffix("ETA 3m30s"), "\(line)")
    }

    @Test func aFolderByEntriesAmongSeveralInputs() {
        let progress = RunProgress(done: 30, read: 30, input: 1, inputCount: 2,
                                   position: ReadPosition(unit: .entries, done: 30, total: 60),
                                   sharesRead: 0.5, currentShare: 0.5)
        #expect(progress.fraction == 0.75)
        let line = progress.line(elapsed: 60, barWidth: nil)
        #expect(line.hasPrefix(" 75%  30 entries  input 2/2 30 of 60 files"), "\(line)")
        #expect(line.contains("ETA 20s"), "\(line)")
    }

    /// One entry of one file reads as such, not "1 entries", "1 files".
    @Test func oneIsSingular() {
        let progress = RunProgress(done: 1, read: 1, inputCount: 1,
                                   position: ReadPosition(unit: .entries, done: 1, total: 1), currentShare: 1)
        let line = progress.line(elapsed: 1, barWidth: nil)
        #expect(line.hasPrefix("100%  1 entry  1 of 1 file "), "\(line)")
    }

    /// Before an entry is written nothing tells how long one takes: a line
    /// then would have no ETA, so the first one waits for the first entry
    /// written; a stream's line has rates only and is ready at once.
    @Test func aLineIsReadyOnceItCanSayTheTimeLeft() {
        var progress = RunProgress(done: 0, read: 3, inputCount: 1,
                                   position: ReadPosition(unit: .bytes, done: 300, total: 1000), currentShare: 1)
        #expect(progress.isReadyToShow == false)
        #expect(!progress.line(elapsed: 0.5, barWidth: nil).contains("ETA"))
        progress.done = 1
        #expect(progress.isReadyToShow)
        // 0.3 of the bytes read, a third of the entries read written: 0.1 done in 2 s, 18 s left.
        #expect(progress.line(elapsed: 2, barWidth: nil).hasSuffix("ETA 18s"))
        let stream = RunProgress(done: 0, read: 1, inputCount: 1,
                                 position: ReadPosition(unit: .bytes, done: 300, total: nil), currentShare: 1)
        #expect(stream.isReadyToShow)
    }

    /// Issue 38 row 9: in a log (stderr not a terminal) the first progress
    /// line already says the time left, as docs/RUNNING.md promises.
    @Test(.enabled(if: FacepipeProcess.available, "needs the facepipe binary"))
    func theFirstLineOfALogHasAnETA() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let tar = try PNGTar(sides: Array(repeating: 256, count: 8), in: folder)
        try Data(tar.bytes).write(to: folder.appendingPathComponent("pngs.tar"))
        let (status, stderr) = try FacepipeProcess.run(["run", "--pipeline", "upright-png", "pngs.tar", "--out", "out", "--workers", "1"],
                                                       in: folder)
        #expect(status == 0, "\(stderr)")
        let lines = stderr.split(separator: "\n").filter { $0.contains("img/s") }
        let first = try #require(lines.first, "no progress line: \(stderr)")
        #expect(first.contains("ETA "), "\(stderr)")
    }

    @Test func aStreamHasRatesOnly() {
        let progress = RunProgress(done: 12, failed: 2, megapixels: 24, read: 12, inputCount: 1,
                                   position: ReadPosition(unit: .bytes, done: 3_500_000, total: nil), currentShare: 1)
        #expect(progress.fraction == nil)
        #expect(progress.secondsLeft(elapsed: 4) == nil)
        #expect(progress.line(elapsed: 4, barWidth: 24) == "12 entries  3.5 MB read (a stream: no total)  3.0 img/s  6.0 MP/s  2 failed")
    }

    @Test func onceEverythingIsReadEntriesWrittenOfTheTotal() {
        let progress = RunProgress(done: 40, total: 50, read: 50, inputCount: 1,
                                   position: ReadPosition(unit: .bytes, done: 900, total: nil), currentShare: 1)
        #expect(progress.fraction == 0.8)
        #expect(progress.line(elapsed: 8, barWidth: 4).hasPrefix("[###-]   80%  40/50 entries  5.0 img/s"))
    }

    @Test(arguments: [
        ([Int64(100), 300], [0.25, 0.75]),
        ([Int64(100), nil], [0.5, 0.5]),
        ([Int64(0), 0, 0, 0], [0.25, 0.25, 0.25, 0.25]),
    ] as [([Int64?], [Double])])
    func inputSharesBySizeWhenAllAreKnown(_ sizes: [Int64?], _ shares: [Double]) {
        #expect(InputShares.of(sizes: sizes) == shares)
    }

    @Test(arguments: [(42.0, "42s"), (185, "3m05s"), (7620, "2h07m")])
    func durations(_ seconds: Double, _ text: String) {
        #expect(RunProgress.duration(seconds) == text)
    }
}
