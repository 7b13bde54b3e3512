import ImageCodecs
import Testing

@Test func formatComesFromMagicBytes() {
    #expect(ImageFormat(sniffing: [0xFF, 0xD8, 0xFF, 0xE0]) == .jpeg)
    #expect(ImageFormat(sniffing: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0]) == .png)
    #expect(ImageFormat(sniffing: Array("hello".utf8)) == nil)
    #expect(ImageFormat(sniffing: [UInt8]()) == nil)
}
