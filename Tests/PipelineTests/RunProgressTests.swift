import Foundation
import Pipeline
import Testing

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
