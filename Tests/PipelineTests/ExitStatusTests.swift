import Pipeline
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
