import Testing
import VideoIO

@Suite struct FFmpegErrorTests {
    @Test func anErrorSaysWhatFailedInFFmpegsWords() throws {
        let error = FFmpegError("open the container", code: -1_094_995_529)  // AVERROR_INVALIDDATA
        #expect(error.description == "open the container: Invalid data found when processing input")
        #expect(!error.isEndOfFile)
        #expect(throws: FFmpegError.self) { try FFmpegError.check(-11, "decode a frame") }
        #expect(try FFmpegError.check(0, "decode a frame") == 0)
        #expect(FFmpegError("read", code: FFmpegError.endOfFileCode).isEndOfFile)
    }
}
