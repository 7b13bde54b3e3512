import Testing
import VideoIO

/// The codec configurations `AudioTreatment` rebuilds: read for what a
/// decoder needs, written again from those numbers alone, so bytes appended
/// to a configuration (a JPEG in a Matroska CodecPrivate) or held in its
/// optional parts (FLAC's picture and comment blocks, its MD5) are not kept.
@Suite struct AudioConfigurationTests {
    static let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10] + Array("JFIF face pixels".utf8)

    struct AACCase: Sendable, CustomStringConvertible {
        var name: String
        var source: [UInt8]
        var rebuilt: [UInt8]
        var description: String { name }
    }

    static let aacCases: [AACCase] = [
        // AAC-LC 44.1 kHz stereo: 2 bytes; FFmpeg's encoder adds an explicit "no SBR" sync extension.
        AACCase(name: "LC", source: [0x12, 0x10], rebuilt: [0x12, 0x10]),
        AACCase(name: "LC with a sync extension", source: [0x12, 0x10, 0x56, 0xE5, 0x00], rebuilt: [0x12, 0x10]),
        AACCase(name: "LC with a JPEG appended", source: [0x11, 0x90] + jpeg, rebuilt: [0x11, 0x90]),
        // HE-AAC, 24 kHz core, 48 kHz SBR, stereo, explicit: AOT 5, index 6, 2 channels, index 3, AOT 2.
        AACCase(name: "HE-AAC explicit", source: [0x2B, 0x11, 0x88, 0x00] + jpeg, rebuilt: [0x2B, 0x11, 0x88, 0x00]),
    ]

    @Test(arguments: aacCases)
    func aacKeepsOnlyItsFields(_ testCase: AACCase) throws {
        let config = try #require(AudioSpecificConfig(parsing: testCase.source))
        #expect(config.bytes == testCase.rebuilt)
        #expect(AudioSpecificConfig(parsing: config.bytes) == config)
    }

    @Test func aacBackwardCompatibleSBRIsWrittenExplicitly() throws {
        // LC 24 kHz stereo, then the sync extension 0x2B7, SBR (5) present, 48 kHz.
        var writer = BitWriter()
        writer.write(2, bits: 5); writer.write(6, bits: 4); writer.write(2, bits: 4); writer.write(0, bits: 3)
        writer.write(0x2B7, bits: 11); writer.write(5, bits: 5); writer.write(1, bits: 1); writer.write(3, bits: 4)
        let config = try #require(AudioSpecificConfig(parsing: writer.bytes))
        #expect(config.sbrSampleRate == 48000 && config.sampleRate == 24000 && config.objectType == 2)
        #expect(config.bytes == [0x2B, 0x11, 0x88, 0x00])
    }

    @Test(arguments: [
        [0x10, 0x00] as [UInt8],            // channel configuration 0: a program config element (with its comment field)
        [0xF8, 0x00, 0x00] as [UInt8],     // escape object type (USAC and others)
        [0x12] as [UInt8],                  // cut short
    ])
    func aacFormsNotReadAreReencoded(_ bytes: [UInt8]) {
        #expect(AudioSpecificConfig(parsing: bytes) == nil)
    }

    @Test func opusKeepsItsNineteenBytes() throws {
        let head: [UInt8] = Array("OpusHead".utf8) + [1, 2, 0x38, 0x01, 0x80, 0xBB, 0, 0, 0, 0, 0]
        let config = try #require(OpusHead(parsing: head + Self.jpeg))
        #expect(config.bytes == head)
        #expect(config.preSkip == 312 && config.channels == 2 && config.inputSampleRate == 48000)
    }

    @Test func opusFamilyOneKeepsItsTable() throws {
        let head: [UInt8] = Array("OpusHead".utf8) + [1, 6, 0x38, 0x01, 0x80, 0xBB, 0, 0, 0, 0, 1, 4, 2, 0, 4, 1, 2, 3, 5]
        let config = try #require(OpusHead(parsing: head + Self.jpeg))
        #expect(config.bytes == head)
        #expect(OpusHead(parsing: Array("OpusHead".utf8) + [1, 2, 0, 0, 0, 0, 0, 0, 0, 0, 2]) == nil)   // family 2: re-encoded
    }

    @Test func flacKeepsStreamInfoWithoutItsSignature() throws {
        var streamInfo: [UInt8] = [0x10, 0x00, 0x10, 0x00, 0x00, 0x00, 0x10, 0x00, 0x20, 0x00, 0x0B, 0xB8, 0x00, 0xF0]
        streamInfo += [0x00, 0x01, 0x77, 0x00] + [UInt8](repeating: 0xAB, count: 16)
        #expect(streamInfo.count == 34)
        let picture = [UInt8](repeating: 0, count: 4) + Self.jpeg
        var extradata: [UInt8] = Array("fLaC".utf8)
        extradata += [0x00, 0, 0, 34]
        extradata += streamInfo
        extradata += [0x86, 0, 0, UInt8(picture.count)]
        extradata += picture
        let config = try #require(FLACStreamInfo(parsing: extradata))
        #expect(config.sampleRate == 48000 && config.channels == 1 && config.bitsPerSample == 16)
        let expected: [UInt8] = Array(streamInfo.prefix(18)) + [UInt8](repeating: 0, count: 16)
        #expect(config.bytes == expected)
        #expect(FLACStreamInfo(parsing: config.bytes) == config)
    }
}
