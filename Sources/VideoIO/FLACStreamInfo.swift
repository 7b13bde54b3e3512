/// FLAC's codec configuration: the STREAMINFO block alone (FFmpeg's extradata is either its 34 bytes or a
/// whole `fLaC` header with every metadata block: Vorbis comments, pictures, application data). Read for what
/// a decoder needs and written again as 34 bytes from those numbers, the MD5 signature left zero ("not
/// computed"). No other metadata block is ever written.
package struct FLACStreamInfo: Equatable, Sendable {
    package var minBlockSize: Int, maxBlockSize: Int
    package var minFrameSize: Int, maxFrameSize: Int
    package var sampleRate: Int
    package var channels: Int
    package var bitsPerSample: Int
    package var totalSamples: UInt64

    package static let size = 34

    package init(minBlockSize: Int, maxBlockSize: Int, minFrameSize: Int, maxFrameSize: Int, sampleRate: Int,
                 channels: Int, bitsPerSample: Int, totalSamples: UInt64) {
        self.minBlockSize = minBlockSize
        self.maxBlockSize = maxBlockSize
        self.minFrameSize = minFrameSize
        self.maxFrameSize = maxFrameSize
        self.sampleRate = sampleRate
        self.channels = channels
        self.bitsPerSample = bitsPerSample
        self.totalSamples = totalSamples
    }

    /// The STREAMINFO in `extradata` (34 bytes, or `fLaC` and a first block that is STREAMINFO), or nil.
    package init?(parsing extradata: [UInt8]) {
        var body = extradata
        if extradata.starts(with: Array("fLaC".utf8)) {
            // The first metadata block: its header (last flag, type 0, 24-bit length 34), then its body.
            guard extradata.count >= 8 + Self.size, extradata[4] & 0x7F == 0,
                  Int(extradata[5]) << 16 | Int(extradata[6]) << 8 | Int(extradata[7]) == Self.size else { return nil }
            body = Array(extradata[8..<(8 + Self.size)])
        }
        guard body.count >= Self.size else { return nil }
        var reader = BitReader(Array(body.prefix(Self.size)))
        guard let minBlock = reader.read(16), let maxBlock = reader.read(16),
              let minFrame = reader.read(24), let maxFrame = reader.read(24),
              let rate = reader.read(20), let channels = reader.read(3), let bits = reader.read(5),
              let total = reader.read(36),
              minBlock >= 16, maxBlock >= minBlock, rate > 0, bits >= 3 else { return nil }
        self.init(minBlockSize: Int(minBlock), maxBlockSize: Int(maxBlock), minFrameSize: Int(minFrame),
                  maxFrameSize: Int(maxFrame), sampleRate: Int(rate), channels: Int(channels) + 1,
                  bitsPerSample: Int(bits) + 1, totalSamples: total)
    }

    /// The 34 bytes, MD5 zero.
    package var bytes: [UInt8] {
        var writer = BitWriter()
        writer.write(UInt64(minBlockSize), bits: 16)
        writer.write(UInt64(maxBlockSize), bits: 16)
        writer.write(UInt64(minFrameSize), bits: 24)
        writer.write(UInt64(maxFrameSize), bits: 24)
        writer.write(UInt64(sampleRate), bits: 20)
        writer.write(UInt64(channels - 1), bits: 3)
        writer.write(UInt64(bitsPerSample - 1), bits: 5)
        writer.write(totalSamples, bits: 36)
        writer.write(0, bits: 64)
        writer.write(0, bits: 64)
        return writer.bytes
    }
}
