import Testing
import VideoIO

@Suite struct VideoContainerKindTests {
    struct Case: Sendable, CustomStringConvertible {
        var description: String
        var bytes: [UInt8]
        var kind: VideoContainerKind?
    }

    static let cases: [Case] = [
        Case(description: "MP4", bytes: [0, 0, 0, 0x20] + Array("ftypisom".utf8), kind: .isoMedia),
        Case(description: "MOV", bytes: [0, 0, 0, 0x14] + Array("ftypqt  ".utf8), kind: .isoMedia),
        Case(description: "MKV/WebM", bytes: [0x1A, 0x45, 0xDF, 0xA3, 0x9F, 0x42, 0x86, 0x81, 1, 0x42, 0xF7, 0x81], kind: .matroska),
        Case(description: "JPEG", bytes: [0xFF, 0xD8, 0xFF, 0xE0, 0, 0x10] + Array("JFIF\0\u{1}".utf8), kind: nil),
        Case(description: "PNG", bytes: [0x89] + Array("PNG\r\n\u{1A}\n".utf8) + [0, 0, 0], kind: nil),
        Case(description: "HLS playlist", bytes: Array("#EXTM3U\n#EXT-X-VERSION:3\n".utf8), kind: nil),
        Case(description: "concat script", bytes: Array("ffconcat version 1.0\nfile '/etc/passwd'\n".utf8), kind: nil),
        Case(description: "ftyp too short to be a box", bytes: [0, 0, 0, 8] + Array("ftypisom".utf8), kind: nil),
        Case(description: "too few bytes", bytes: [0, 0, 0, 0x20] + Array("ftyp".utf8), kind: nil),
    ]

    @Test(arguments: cases)
    func recognisesContainersByTheirFirstBytes(_ example: Case) {
        #expect(VideoContainerKind(sniffing: example.bytes) == example.kind)
    }
}
