import Pipeline
import Testing

@Test func exitCodesAreThePromisedOnes() {
    #expect(ExitStatus.ok.rawValue == 0)
    #expect(ExitStatus.someEntriesFailed.rawValue == 1)
    #expect(ExitStatus.usageOrSetup.rawValue == 2)
}
