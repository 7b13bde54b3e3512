import ImageCore
import Pipeline
import Testing

/// The stage cache's binary form: every field of a record survives the
/// round trip, and damaged bytes throw instead of decoding to something else.
@Suite struct CompactCoderTests {
    static func fullRecord() -> EntryRecord {
        var record = EntryRecord(archive: "shard-07.tar", entry: "photos/élan ✓.jpg", index: 41)
        record.width = 4032
        record.height = 3024
        record.exifOrientation = 6
        record.warnings = ["EXIF orientation 9 ignored", ""]
        record.detectionRan = true
        var kept = FaceRecord(face: 1, confidence: 0.9375, box: Rect(x: 10.5, y: -3, width: 200.25, height: 210),
                              keypoints: [Point(x: 1, y: 2), Point(x: -0.0, y: .greatestFiniteMagnitude)])
        kept.pointGroups = [PointGroup(name: "mesh", x: [1, 2, 3], y: [4, 5, 6], z: [-1, 0, .leastNonzeroMagnitude]),
                            PointGroup(name: "contour.face", points: [Point(x: 7, y: 8)])]
        kept.pose = HeadAngles(roll: 1.5, yaw: -20, pitch: 3)
        kept.classification = FaceScores(smiling: 0.25, leftEyeOpen: 1, rightEyeOpen: 0)
        kept.quality = 0.5
        kept.trackingID = 12
        var rejected = FaceRecord(face: 2, confidence: 0.61, box: Rect(x: 0, y: 0, width: 1, height: 1))
        rejected.rejection = "confidence 0.61 < 0.70"
        record.faces = [kept, rejected]
        return record
    }

    @Test(arguments: [fullRecord(), EntryRecord(archive: "", entry: "", index: 0)])
    func recordsRoundTrip(_ record: EntryRecord) throws {
        let bytes = try CompactEncoder.encode(record)
        #expect(try CompactDecoder.decode(EntryRecord.self, from: bytes) == record)
    }

    @Test func optionalsAndArraysOfOptionalsRoundTrip() throws {
        let values: [Float?] = [1, nil, -2]
        #expect(try CompactDecoder.decode([Float?].self, from: CompactEncoder.encode(values)) == values)
        let nested: [[String]] = [["a", "b"], [], ["c"]]
        #expect(try CompactDecoder.decode([[String]].self, from: CompactEncoder.encode(nested)) == nested)
    }

    @Test func damagedBytesThrow() throws {
        let bytes = try CompactEncoder.encode(Self.fullRecord())
        for cut in [0, 1, 8, bytes.count / 2, bytes.count - 1] {
            #expect(throws: (any Error).self, "cut at \(cut)") { try CompactDecoder.decode(EntryRecord.self, from: Array(bytes.prefix(cut))) }
        }
        #expect(throws: (any Error).self) { try CompactDecoder.decode(EntryRecord.self, from: bytes + [0]) }
        var hugeCount = bytes
        hugeCount.replaceSubrange(0..<8, with: [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x7F])
        #expect(throws: (any Error).self) { try CompactDecoder.decode(EntryRecord.self, from: hugeCount) }
    }

    @Test func dictionariesAreRefused() {
        #expect(throws: (any Error).self) { try CompactEncoder.encode(["a": 1]) }
    }
}
