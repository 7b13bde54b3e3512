import ImageCodecs
import ImageCore
import Testing

@Suite struct ExifParserTests {
    struct OrientationCase: CustomTestStringConvertible, Sendable {
        var orientation: ExifOrientation
        var bigEndian: Bool
        var testDescription: String { "\(orientation) \(bigEndian ? "MM" : "II")" }
    }

    static let allOrientations = ExifOrientation.allCases.flatMap { [OrientationCase(orientation: $0, bigEndian: false), OrientationCase(orientation: $0, bigEndian: true)] }

    @Test(arguments: allOrientations)
    func readsOrientationInBothByteOrders(_ testCase: OrientationCase) {
        let tiff = TestImages.exifTIFF(orientation: UInt16(testCase.orientation.rawValue), bigEndian: testCase.bigEndian)
        let result = ExifParser.orientation(fromTIFF: tiff)
        #expect(result.orientation == testCase.orientation)
        #expect(result.warnings.isEmpty)
    }

    @Test func acceptsLongTypedOrientation() {
        let result = ExifParser.orientation(fromTIFF: TestImages.exifTIFF(orientation: 6, bigEndian: true, orientationType: 4))
        #expect(result.orientation == .rightTop)
    }

    struct MalformedCase: CustomTestStringConvertible, Sendable {
        var name: String
        var bytes: [UInt8]
        var warningMentions: String
        var testDescription: String { name }
    }

    static let malformed: [MalformedCase] = {
        let good = TestImages.exifTIFF(orientation: 6, bigEndian: false)
        var badOffset = good; badOffset[4] = 0xF0; badOffset[5] = 0xFF; badOffset[6] = 0xFF; badOffset[7] = 0x7F
        var hugeCount = good; hugeCount[8] = 0xFF; hugeCount[9] = 0xFF
        var badMagic = good; badMagic[2] = 43
        var zeroValue = good; zeroValue[8 + 2 + 12 + 8] = 0
        var nineValue = good; nineValue[8 + 2 + 12 + 8] = 9
        var wrongType = good; wrongType[8 + 2 + 12 + 2] = 7
        var negativeOffset = good; negativeOffset[4] = 0xFF; negativeOffset[5] = 0xFF; negativeOffset[6] = 0xFF; negativeOffset[7] = 0xFF
        return [
            MalformedCase(name: "too short", bytes: Array(good.prefix(5)), warningMentions: "shorter"),
            MalformedCase(name: "empty", bytes: [], warningMentions: "shorter"),
            MalformedCase(name: "unknown byte order", bytes: [0x41, 0x42] + good.dropFirst(2), warningMentions: "byte order"),
            MalformedCase(name: "bad magic", bytes: badMagic, warningMentions: "42"),
            MalformedCase(name: "IFD0 offset out of bounds", bytes: badOffset, warningMentions: "outside"),
            MalformedCase(name: "IFD0 offset 0xFFFFFFFF", bytes: negativeOffset, warningMentions: "outside"),
            MalformedCase(name: "entry count past the end", bytes: Array(hugeCount.prefix(30)), warningMentions: "entries"),
            MalformedCase(name: "value 0", bytes: zeroValue, warningMentions: "outside 1...8"),
            MalformedCase(name: "value 9", bytes: nineValue, warningMentions: "outside 1...8"),
            MalformedCase(name: "wrong type", bytes: wrongType, warningMentions: "type 7"),
        ]
    }()

    @Test(arguments: malformed)
    func malformedBlocksGiveOrientationOneAndAWarning(_ testCase: MalformedCase) {
        let result = ExifParser.orientation(fromTIFF: testCase.bytes)
        #expect(result.orientation == .topLeft)
        #expect(result.warnings.contains { $0.contains(testCase.warningMentions) }, "\(result.warnings)")
    }

    @Test func orientationBeforeTruncationIsKept() {
        // The IFD claims 3 entries but the block ends after the second (Orientation): the tag is still read, with a warning.
        let good = TestImages.exifTIFF(orientation: 8, bigEndian: true)
        let result = ExifParser.orientation(fromTIFF: Array(good.prefix(8 + 2 + 24)))
        #expect(result.orientation == .leftBottom)
        #expect(result.warnings == ["EXIF: IFD0 declares 3 entries but the block ends after 2; the Orientation tag read before it is kept"])
    }

    @Test func selfReferencingIFDChainDoesNotLoop() {
        var tiff = TestImages.exifTIFF(orientation: 3, bigEndian: false)
        let next = tiff.count - 4
        tiff[next] = 8  // next IFD = IFD0 itself
        #expect(ExifParser.orientation(fromTIFF: tiff).orientation == .bottomRight)
    }

    /// Damaged blocks (three bytes changed, or cut short) give an orientation
    /// and warnings that agree with it: a warning that assumes orientation 1
    /// comes only with orientation 1. A block cut after its Orientation
    /// entry (bytes 22–31 of `exifTIFF`; the parser reads the third entry's tag, type and count, up to byte 42) keeps
    /// that orientation and says so.
    @Test func damagedBlocksSayWhatTheyReturn() {
        var warned = 0, assumedOne = 0
        for seed in 1...300 {
            let good = TestImages.exifTIFF(orientation: 6, bigEndian: seed % 2 == 0)
            var bytes = good
            let noise = TestImages.noise(count: 6, seed: UInt64(seed))
            for k in 0..<3 { bytes[Int(noise[2 * k]) % bytes.count] = noise[2 * k + 1] }
            for block in [bytes, Array(bytes.prefix(Int(noise[0]) % bytes.count))] {
                let result = ExifParser.orientation(fromTIFF: block)
                #expect(result.warnings.allSatisfy { $0.hasPrefix("EXIF: ") }, "\(result.warnings)")
                if result.warnings.contains(where: { $0.hasSuffix("orientation 1 assumed") }) {
                    assumedOne += 1
                    #expect(result.orientation == .topLeft, "\(block): \(result.warnings)")
                }
                if !result.warnings.isEmpty { warned += 1 }
            }
            let length = seed % (good.count + 1)
            let cut = ExifParser.orientation(fromTIFF: Array(good.prefix(length)))
            #expect(cut.orientation == (length >= 32 ? .rightTop : .topLeft), "cut at \(length): \(cut)")
            #expect(cut.warnings.isEmpty == (length >= 42), "cut at \(length): \(cut)")
            #expect(cut.warnings.allSatisfy { !$0.hasSuffix("orientation 1 assumed") } == (length >= 32), "cut at \(length): \(cut)")
        }
        // The damage reaches the parser's checks.
        #expect(warned > 100 && assumedOne > 50, "\(warned) warned, \(assumedOne) assumed 1")
    }
}
