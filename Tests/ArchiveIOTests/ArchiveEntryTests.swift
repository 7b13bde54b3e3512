import ArchiveIO
import Testing

@Test func entryKeepsRawNameBesideDisplayName() {
    let entry = ArchiveEntry(archive: "a.tar", index: 3, name: "caf\u{FFFD}.jpg", rawName: [0x63, 0x61, 0x66, 0xE9, 0x2E, 0x6A, 0x70, 0x67], data: [1])
    #expect(entry.rawName.count == 8)
    #expect(entry.index == 3)
}
