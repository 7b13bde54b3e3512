/// AAC's codec configuration (ISO 14496-3 AudioSpecificConfig: MP4's `esds`, Matroska's CodecPrivate), read
/// for what a decoder needs and written again from those numbers alone: 2 bytes for AAC-LC, 4 or 7 with
/// SBR/PS (HE-AAC, written in the explicit hierarchical form). Anything after the fields (a JPEG appended to
/// CodecPrivate, a program config element's comment) is never written.
///
/// Read: the Main, LC and LTP object types with a channel configuration of 1–7 and the plain
/// GASpecificConfig (no core coder, no extension), optionally under SBR (5) or PS (29), explicit or signalled
/// by the backward-compatible sync extension. Anything else (a program config element, scalable or
/// error-resilient types, USAC) is not read: the stream is re-encoded instead (`AudioTreatment`).
package struct AudioSpecificConfig: Equatable, Sendable {
    /// The core coder's object type: 1 Main, 2 LC, 4 LTP.
    package var objectType: Int
    /// The core's sampling frequency in Hz.
    package var sampleRate: Int
    /// 1–7 (channel configurations of ISO 14496-3 table 1.19).
    package var channelConfiguration: Int
    /// 960-sample frames instead of 1024.
    package var shortFrames: Bool
    /// SBR's output sampling frequency (HE-AAC), nil without SBR.
    package var sbrSampleRate: Int?
    /// Parametric stereo (HE-AAC v2); only with SBR.
    package var parametricStereo: Bool

    private static let rates = [96000, 88200, 64000, 48000, 44100, 32000, 24000, 22050, 16000, 12000, 11025, 8000, 7350]

    package init(objectType: Int, sampleRate: Int, channelConfiguration: Int, shortFrames: Bool = false,
                 sbrSampleRate: Int? = nil, parametricStereo: Bool = false) {
        self.objectType = objectType
        self.sampleRate = sampleRate
        self.channelConfiguration = channelConfiguration
        self.shortFrames = shortFrames
        self.sbrSampleRate = sbrSampleRate
        self.parametricStereo = parametricStereo
    }

    /// The configuration in `bytes`, or nil when it is not one of the forms read (see the type's comment).
    package init?(parsing bytes: [UInt8]) {
        var reader = BitReader(bytes)
        guard var type = Self.readObjectType(&reader), let rate = Self.readRate(&reader),
              let channels = reader.read(4) else { return nil }
        var sbrRate: Int?
        var ps = false
        if type == 5 || type == 29 {
            ps = type == 29
            guard let extensionRate = Self.readRate(&reader), let core = Self.readObjectType(&reader) else { return nil }
            sbrRate = extensionRate
            type = core
        }
        guard [1, 2, 4].contains(type), (1...7).contains(channels),
              let frameLength = reader.read(1), reader.read(1) == 0, reader.read(1) == 0 else { return nil }
        // The backward-compatible signalling of SBR and PS after the core's configuration.
        if sbrRate == nil, type == 2, reader.bitsLeft >= 16, reader.peek(11) == 0x2B7 {
            _ = reader.read(11)
            if reader.read(5) == 5, reader.read(1) == 1 {
                guard let extensionRate = Self.readRate(&reader) else { return nil }
                sbrRate = extensionRate
                if reader.bitsLeft >= 12, reader.peek(11) == 0x548 {
                    _ = reader.read(11)
                    ps = reader.read(1) == 1
                }
            }
        }
        if ps, channels != 1 { return nil }   // PS makes stereo of a mono core
        self.init(objectType: Int(type), sampleRate: rate, channelConfiguration: Int(channels),
                  shortFrames: frameLength == 1, sbrSampleRate: sbrRate, parametricStereo: ps)
    }

    /// The configuration written from the fields alone.
    package var bytes: [UInt8] {
        var writer = BitWriter()
        if let sbrSampleRate {
            writer.write(parametricStereo ? 29 : 5, bits: 5)
            Self.writeRate(sampleRate, &writer)
            writer.write(UInt64(channelConfiguration), bits: 4)
            Self.writeRate(sbrSampleRate, &writer)
            writer.write(UInt64(objectType), bits: 5)
        } else {
            writer.write(UInt64(objectType), bits: 5)
            Self.writeRate(sampleRate, &writer)
            writer.write(UInt64(channelConfiguration), bits: 4)
        }
        writer.write(shortFrames ? 1 : 0, bits: 1)
        writer.write(0, bits: 2)   // no core coder, no extension
        return writer.bytes
    }

    private static func readObjectType(_ reader: inout BitReader) -> UInt64? {
        guard let type = reader.read(5) else { return nil }
        guard type == 31 else { return type }
        return reader.read(6).map { 32 + $0 }
    }

    private static func readRate(_ reader: inout BitReader) -> Int? {
        guard let index = reader.read(4) else { return nil }
        if index == 15 {
            guard let rate = reader.read(24), rate > 0 else { return nil }
            return Int(rate)
        }
        return Int(index) < rates.count ? rates[Int(index)] : nil
    }

    private static func writeRate(_ rate: Int, _ writer: inout BitWriter) {
        if let index = rates.firstIndex(of: rate) {
            writer.write(UInt64(index), bits: 4)
        } else {
            writer.write(15, bits: 4)
            writer.write(UInt64(rate), bits: 24)
        }
    }
}
