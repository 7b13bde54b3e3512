import Pipeline
import RunFolders
import Testing

@Test func exitCodesAreThePromisedOnes() {
    #expect(ExitStatus.ok.rawValue == 0)
    #expect(ExitStatus.someEntriesFailed.rawValue == 1)
    #expect(ExitStatus.usageOrSetup.rawValue == 2)
    #expect(ExitStatus.writeFailed.rawValue == 3)
    #expect(ExitStatus.interrupted.rawValue == 128 + 2)
    #expect(ExitStatus.terminated.rawValue == 128 + 15)
}

@Test func aWriteFailureOutranksFailedEntries() {
    var summary = RunSummary()
    summary.failedEntries = 2
    #expect(summary.exitStatus == .someEntriesFailed)
    summary.writeFailure = "cannot write /out/images/a.png: No space left on device"
    #expect(summary.exitStatus == .writeFailed)
    #expect(summary.line.contains("INCOMPLETE"))
}

/// Out of memory is said as such, not as a disk or path problem (issue 50, row 5).
@Test func outOfMemoryIsSaidAsSuch() {
    var summary = RunSummary()
    summary.writeFailure = "clip.mp4: out of memory (encoding a frame); frames this large need more memory, or fewer --workers."
    #expect(summary.exitStatus == .writeFailed)
    #expect(summary.line.contains("INCOMPLETE: out of memory"))
    #expect(!summary.line.contains("free space"))
}
