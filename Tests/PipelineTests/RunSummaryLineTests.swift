import Testing
import PipelineRunning
import RunFolders

/// The summary line at the end of a run: it points to skipped.csv only when
/// that file lists something.
@Suite struct RunSummaryLineTests {
    @Test func aRunWithNothingSkippedDoesNotPointToTheSkippedList() {
        var summary = RunSummary()
        summary.entries = 3
        #expect(summary.line.contains("0 skipped"), "\(summary.line)")
        #expect(!summary.line.contains("skipped.csv"), "\(summary.line)")
    }

    @Test func skippedEntriesAreCountedAndPointToTheList() {
        var summary = RunSummary()
        summary.addSkipped(.init(archive: "a.tar", index: 0, name: "link", reason: "a symbolic link"))
        #expect(summary.line.contains("1 skipped (listed in skipped.csv)"), "\(summary.line)")
    }
}
