import ImageCore
import Pipeline
import RunFolders
import Testing
import _TestSupport

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

    /// One seeded change to `bytes`: a flipped bit, a random byte, a cut, an
    /// insertion, or an extreme 8-byte word (counts and sizes are words).
    static func mutate(_ bytes: inout [UInt8], _ random: inout SplitMix64) {
        let at = Int(random.next() % UInt64(max(bytes.count, 1)))
        switch random.next() % 6 {
        case 0 where !bytes.isEmpty: bytes[at] ^= UInt8(1 << (random.next() % 8))
        case 1 where !bytes.isEmpty: bytes[at] = UInt8(truncatingIfNeeded: random.next())
        case 2: bytes.removeSubrange(at..<min(bytes.count, at + Int(random.next() % 16)))
        case 3: bytes.insert(contentsOf: (0..<Int(random.next() % 9)).map { _ in UInt8(truncatingIfNeeded: random.next()) }, at: at)
        default:
            let extremes: [UInt64] = [.max, 1 << 63, (1 << 63) - 1, 1 << 32, 0, 0x7FF0_0000_0000_0000, 0x7FC0_0000]
            let word = extremes[Int(random.next() % UInt64(extremes.count))]
            let start = min(at, max(bytes.count - 8, 0))
            withUnsafeBytes(of: word.littleEndian) { bytes.replaceSubrange(start..<min(bytes.count, start + 8), with: $0) }
        }
    }

    /// Decoding damaged bytes throws or gives a record; checking that record
    /// never traps (a trap ends the test process, failing it).
    @Test(arguments: [1, 2, 3, 4] as [UInt64])
    func mutatedRecordBytesNeverTrap(seed: UInt64) throws {
        var random = SplitMix64(seed: seed)
        let valid = try CompactEncoder.encode(Self.fullRecord())
        var decoded = 0, damaged = 0
        for _ in 0..<3000 {
            var bytes = valid
            for _ in 0..<(1 + random.next() % 4) { Self.mutate(&bytes, &random) }
            guard let record = try? CompactDecoder.decode(EntryRecord.self, from: bytes) else { continue }
            decoded += 1
            if record.damage(comparedWith: Self.fullRecord()) != nil { damaged += 1 }
        }
        #expect(decoded > 0, "some mutations keep the structure (a changed float, a changed letter)")
        #expect(damaged < decoded, "and some of those are still valid records")
    }

    /// Random bytes are refused with the decoder's own error (never a
    /// trap, which would end the test process), and the rare input that
    /// decodes is a value that encodes back to the same bytes: the decoder
    /// accepts nothing the encoder would not write.
    @Test(arguments: [5, 6] as [UInt64])
    func randomBytesAreRefusedOrRoundTrip(seed: UInt64) throws {
        var random = SplitMix64(seed: seed)
        var refused = 0
        for length in 0..<2000 {
            let bytes = (0..<length % 300).map { _ in UInt8(truncatingIfNeeded: random.next() >> 56) }
            for decode in [Self.roundTrip(EntryRecord.self), Self.roundTrip(CompletionRecord.self)] {
                do {
                    let encoded = try decode(bytes)
                    #expect(encoded == bytes, "decoded \(bytes.count) random bytes into a value that encodes otherwise")
                } catch is DecodingError {
                    refused += 1
                }
            }
        }
        #expect(refused > 3900, "random bytes are almost never a record: \(refused) of 4000 refused")
    }

    /// Decodes `bytes` as `type` and encodes the value again.
    static func roundTrip<T: Codable>(_ type: T.Type) -> ([UInt8]) throws -> [UInt8] {
        { bytes in try CompactEncoder.encode(CompactDecoder.decode(T.self, from: bytes)) }
    }

    /// A sealed record opens only unchanged: every mutation is caught by the checksum.
    @Test(arguments: [7, 8] as [UInt64])
    func everyChangeToASealedRecordIsFound(seed: UInt64) throws {
        var random = SplitMix64(seed: seed)
        let result = CachedStageResult(contentHash: "ab", stageFingerprint: "cd", record: Self.fullRecord())
        let sealed = try SealedRecord.seal(result, kind: .stageResult)
        #expect(try SealedRecord.open(CachedStageResult.self, kind: .stageResult, from: sealed) == result)
        #expect(throws: RecordDamage.self) { try SealedRecord.open(CompletionRecord.self, kind: .completion, from: sealed) }
        for _ in 0..<2000 {
            var bytes = sealed
            Self.mutate(&bytes, &random)
            if bytes == sealed { continue }
            #expect(throws: RecordDamage.self) { try SealedRecord.open(CachedStageResult.self, kind: .stageResult, from: bytes) }
        }
    }

    @Test(arguments: [("height", Int.max), ("width", -1), ("width", 1 << 40), ("orientation", 0), ("orientation", 9)])
    func impossibleSizesAreDamage(_ field: String, _ value: Int) {
        var record = Self.fullRecord()
        #expect(record.damage == nil)
        switch field {
        case "height": record.height = value
        case "width": record.width = value
        default: record.exifOrientation = value
        }
        #expect(record.damage != nil)
    }

    @Test func dictionariesAreRefused() {
        #expect(throws: (any Error).self) { try CompactEncoder.encode(["a": 1]) }
    }
}
