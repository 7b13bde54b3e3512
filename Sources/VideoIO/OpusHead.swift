/// Opus's codec configuration (RFC 7845's identification header `OpusHead`: Matroska's CodecPrivate, MP4's
/// `dOps`), read for what a decoder needs and written again from those numbers alone: 19 bytes for mapping
/// family 0 (mono, stereo), 21 + channels for family 1 (up to 8 channels, with its stream table). Nothing
/// after the fields (a JPEG appended to CodecPrivate) is written.
///
/// Other mapping families (2: ambisonics, 255: undefined) are not read: the stream is re-encoded instead.
package struct OpusHead: Equatable, Sendable {
    package var channels: Int
    /// Samples (at 48 kHz) to drop at the start.
    package var preSkip: Int
    /// The rate the audio had before encoding (informational; 0: unknown).
    package var inputSampleRate: Int
    /// Output gain in Q7.8 dB.
    package var gain: Int16
    /// 0 or 1.
    package var mappingFamily: Int
    /// Family 1: the number of Opus streams, how many of them are coupled (stereo), and each output
    /// channel's source (a decoded channel, or 255 for silence).
    package var streamCount: Int
    package var coupledCount: Int
    package var channelMapping: [UInt8]

    package init(channels: Int, preSkip: Int, inputSampleRate: Int, gain: Int16, mappingFamily: Int,
                 streamCount: Int, coupledCount: Int, channelMapping: [UInt8]) {
        self.channels = channels
        self.preSkip = preSkip
        self.inputSampleRate = inputSampleRate
        self.gain = gain
        self.mappingFamily = mappingFamily
        self.streamCount = streamCount
        self.coupledCount = coupledCount
        self.channelMapping = channelMapping
    }

    /// The header in `bytes`, or nil when it is not one of the forms read.
    package init?(parsing bytes: [UInt8]) {
        guard bytes.count >= 19, Array(bytes[0..<8]) == Array("OpusHead".utf8),
              bytes[8] >> 4 == 0,    // major version 0 (versions 0–15 are compatible)
              bytes[9] >= 1 else { return nil }
        let channels = Int(bytes[9])
        let preSkip = Int(bytes[10]) | Int(bytes[11]) << 8
        let rate = Int(bytes[12]) | Int(bytes[13]) << 8 | Int(bytes[14]) << 16 | Int(bytes[15]) << 24
        let gain = Int16(bitPattern: UInt16(bytes[16]) | UInt16(bytes[17]) << 8)
        let family = Int(bytes[18])
        switch family {
        case 0:
            guard channels <= 2 else { return nil }
            self.init(channels: channels, preSkip: preSkip, inputSampleRate: rate, gain: gain, mappingFamily: 0,
                      streamCount: 1, coupledCount: channels - 1, channelMapping: channels == 1 ? [0] : [0, 1])
        case 1:
            guard channels <= 8, bytes.count >= 21 + channels else { return nil }
            let streams = Int(bytes[19]), coupled = Int(bytes[20])
            let mapping = Array(bytes[21..<(21 + channels)])
            guard streams >= 1, coupled <= streams, streams + coupled <= 255,
                  mapping.allSatisfy({ $0 == 255 || Int($0) < streams + coupled }) else { return nil }
            self.init(channels: channels, preSkip: preSkip, inputSampleRate: rate, gain: gain, mappingFamily: 1,
                      streamCount: streams, coupledCount: coupled, channelMapping: mapping)
        default:
            return nil
        }
    }

    /// The header written from the fields alone (version 1).
    package var bytes: [UInt8] {
        var out = Array("OpusHead".utf8)
        out += [1, UInt8(channels), UInt8(preSkip & 0xFF), UInt8(preSkip >> 8)]
        out += (0..<4).map { UInt8((inputSampleRate >> (8 * $0)) & 0xFF) }
        let gainBits = UInt16(bitPattern: gain)
        out += [UInt8(gainBits & 0xFF), UInt8(gainBits >> 8), UInt8(mappingFamily)]
        if mappingFamily != 0 { out += [UInt8(streamCount), UInt8(coupledCount)] + channelMapping }
        return out
    }
}
